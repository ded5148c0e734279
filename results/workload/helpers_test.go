package workload

import (
	"strconv"
	"time"
)

func itoa(i int) string { return strconv.Itoa(i) }

func unix(s int64) time.Time { return time.Unix(s, 0).UTC() }
