package slo

import (
	"testing"
	"time"
)

func TestThreshold(t *testing.T) {
	th, err := ParseThreshold("req/s < -5%")
	if err != nil || th != (Threshold{Metric: "req/s", Op: "<", Change: -0.05}) || th.String() != "req/s < -5%" {
		t.Fatalf("%+v %v", th, err)
	}
	if !th.Beyond(-6) || th.Beyond(-4) || th.Beyond(10) {
		t.Error("req/s < -5%: beyond at -6 only")
	}
	up, err := ParseThreshold("first_byte_p99>+10%")
	if err != nil || !up.Beyond(11) || up.Beyond(9) || up.String() != "first_byte_p99 > +10%" {
		t.Errorf("%+v %v", up, err)
	}
	for _, s := range []string{"req/s = 5%", "reqs < -5%", "req/s < -5", "req/s < fast%"} {
		if _, err := ParseThreshold(s); err == nil {
			t.Errorf("%q parsed", s)
		}
	}
}

func TestShortDuration(t *testing.T) {
	for d, want := range map[time.Duration]string{time.Hour: "1h", 2 * time.Minute: "2m", 90 * time.Second: "1m30s", time.Hour + time.Second: "1h0m1s"} {
		if got := ShortDuration(d); got != want {
			t.Errorf("%v: %q, want %q", d, got, want)
		}
	}
}
