package plan

import (
	"testing"
)

func TestSpanNames(t *testing.T) {
	for _, c := range []struct {
		names []string
		want  string
	}{
		{[]string{"d0", "d1", "d2", "d3"}, "d0..d3"},
		{[]string{"d0", "d1"}, "d0,d1"},
		{[]string{"d0", "d2", "d3"}, "d0,d2,d3"},
		{[]string{"d9", "d10", "d11"}, "d9..d11"},
		{[]string{"a1", "b2", "c3"}, "a1,b2,c3"},
		{[]string{"x", "y", "z"}, "x,y,z"},
		{nil, ""},
	} {
		if got := SpanNames(c.names); got != c.want {
			t.Errorf("SpanNames(%v) = %q, want %q", c.names, got, c.want)
		}
	}
}

func TestSpanNums(t *testing.T) {
	for _, c := range []struct {
		ns   []int
		want string
	}{
		{[]int{6200, 6200, 6200}, "6200"}, {[]int{6210, 6211, 6212}, "6210..6212"},
		{[]int{6210, 6212}, "6210,6212"}, {[]int{7}, "7"}, {nil, ""},
	} {
		if got := SpanNums(c.ns); got != c.want {
			t.Errorf("SpanNums(%v) = %q, want %q", c.ns, got, c.want)
		}
	}
}
