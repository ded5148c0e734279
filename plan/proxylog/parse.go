package proxylog

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// errGarbled is a line that does not follow the template.
var errGarbled = errors.New("does not follow the template")

// Parse reads one line (without its newline, without a syslog prefix)
// into r, which it overwrites. Its values are the line's (the strings share
// its memory unless unquoted).
func (t *Template) Parse(line string, r *Record) error {
	*r = Record{}
	if !strings.HasPrefix(line, t.before) {
		return errGarbled
	}
	rest := line[len(t.before):]
	var end time.Time
	var endErr error
	for i, f := range t.fields {
		var v string
		switch {
		case i == len(t.fields)-1:
			if !strings.HasSuffix(rest, f.after) {
				return errGarbled
			}
			v = rest[:len(rest)-len(f.after)]
		default:
			k := strings.Index(rest, f.after)
			if k < 0 {
				return errGarbled
			}
			v, rest = rest[:k], rest[k+len(f.after):]
		}
		if v == "" || strings.IndexByte(v, ' ') >= 0 {
			return errGarbled // values are quoted: never empty ("-"), never a space
		}
		if f.skip {
			continue
		}
		if err := r.set(f, v, &end, &endErr); err != nil {
			return fmt.Errorf("{%s} %q: %w", f.key, v, err)
		}
	}
	return r.finish(t, end, endErr)
}

// set stores value v of field f in r (an end time in end).
func (r *Record) set(f field, v string, end *time.Time, endErr *error) error {
	if v == "-" {
		v = ""
	}
	var err error
	switch f.key {
	case "method":
		r.Method = v
	case "path":
		r.setPath(v)
	case "account", "account.anonymized":
		r.Account = unquote(v)
	case "container", "container.anonymized":
		r.Container = unquote(v)
	case "object", "object.anonymized":
		r.Object = unquote(v)
	case "status_int":
		r.Status, err = strconv.Atoi(v)
	case "bytes_recvd":
		r.BytesRecvd, err = count(v)
	case "bytes_sent":
		r.BytesSent, err = count(v)
	case "request_time":
		r.RequestTime, err = seconds(v)
	case "ttfb":
		r.TTFB, err = seconds(v)
	case "source":
		r.Source = v
	case "start_time":
		r.Start, err = epoch(v)
	case "end_time", "end_time.datetime", "end_time.iso8601":
		if end.IsZero() || f.attr == "" { // the precise one wins
			*end, *endErr = endTime(f.attr, v)
		}
	}
	return err
}

// finish derives what the fields left: the start from the end time, the
// kind from the container and object fields when there was no path.
func (r *Record) finish(t *Template, end time.Time, endErr error) error {
	if r.Method == "" {
		return errors.New("no method")
	}
	if r.Start.IsZero() {
		if endErr != nil {
			return endErr
		}
		if end.IsZero() {
			return errors.New("no time")
		}
		r.Start = end.Add(-r.RequestTime)
	}
	if !t.has["path"] || (r.S3 && t.has["container"]) {
		r.Kind = kindOf(r.Account, r.Container, r.Object)
	}
	return nil
}

// count reads a byte count ("-" is 0).
func count(v string) (int64, error) {
	if v == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err == nil && n < 0 {
		err = errors.New("negative")
	}
	return n, err
}

// seconds reads request_time or ttfb ("0.0123"; "-" is 0).
func seconds(v string) (time.Duration, error) {
	if v == "" {
		return 0, nil
	}
	f, err := strconv.ParseFloat(v, 64)
	if err != nil || f < 0 || f > 1e7 {
		return 0, errors.New("not a duration in seconds")
	}
	return time.Duration(f * float64(time.Second)), nil
}

// epoch reads Unix seconds with decimals ("1733360523.123456789").
func epoch(v string) (time.Time, error) {
	sec, frac, _ := strings.Cut(v, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || s <= 0 {
		return time.Time{}, errors.New("not Unix seconds")
	}
	var ns int64
	if frac != "" {
		frac = (frac + "000000000")[:9]
		if ns, err = strconv.ParseInt(frac, 10, 64); err != nil || ns < 0 {
			return time.Time{}, errors.New("not Unix seconds")
		}
	}
	return time.Unix(s, ns).UTC(), nil
}

// endTime reads end_time (Unix seconds), end_time.datetime or .iso8601.
func endTime(attr, v string) (time.Time, error) {
	switch attr {
	case "":
		return epoch(v)
	case "datetime":
		return time.Parse("02/Jan/2006/15/04/05", v)
	default:
		return time.Parse("2006-01-02T15:04:05", v)
	}
}

// unquote undoes the log's URL quoting ("%20" is a space); a value it
// cannot undo is kept as logged.
func unquote(v string) string {
	if strings.IndexByte(v, '%') < 0 {
		return v
	}
	if u, err := url.PathUnescape(v); err == nil {
		return u
	}
	return v
}
