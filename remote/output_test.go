package remote

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"testing"

	"benchbed/templates/secrets"
)

// maskLines is the filter setup gives Output: a secrets.Lines per stream.
func maskLines(values ...string) func() func(string) string {
	set := secrets.New(values...)
	return func() func(string) string { return set.Lines().Line }
}

func TestPrefixWriterFiltersWholeLinesSplitAcrossWrites(t *testing.T) {
	var buf bytes.Buffer
	dst := &syncWriter{w: &buf, newFilter: maskLines("lab-bench-key")}
	w := newPrefixWriter(dst, "h0: ")
	for _, part := range []string{"[swift-hash]\nswift_hash_pa", "th_suffix = 0123", "abcd\nkey lab-bench", "-key", " end\nlast password=x"} {
		w.Write([]byte(part))
	}
	w.Flush()
	want := "h0: [swift-hash]\nh0: swift_hash_path_suffix = " + secrets.Masked + "\nh0: key " + secrets.Masked + " end\n" +
		"h0: last password=" + secrets.Masked + "\n"
	if buf.String() != want {
		t.Fatalf("live output:\n got %q\nwant %q", buf.String(), want)
	}
}

// swiftConfCmd prints a swift.conf and a proxy conf's tempauth section as
// host h would, a line at a time, so that the hosts' lines interleave.
func swiftConfCmd(h string) string {
	return fmt.Sprintf(`for l in '[swift-hash]' 'swift_hash_path_suffix = %[1]ssuffix0' 'swift_hash_path_prefix = %[1]sprefix0' \
  '[storage-policy:0]' 'name = gold' '[filter:tempauth]' 'user_bench_bench = lab-bench-key .admin' 'token AUTH_tk%[2]s09af'; do
  echo "$l"; sleep 0.01; done; echo "warn %[1]s AUTH_tk77" >&2`, h, strings.TrimPrefix(h, "h"))
}

func TestLiveOutputOfConfsIsMasked(t *testing.T) {
	var buf bytes.Buffer
	p, _ := newTestPool(t, 3, Output(&buf, maskLines("lab-bench-key")))
	sum := p.FanOut(context.Background(), p.Hosts(), func(ctx context.Context, h string) error {
		res, err := p.Run(ctx, h, swiftConfCmd(h))
		if err == nil && !bytes.Contains(res.Stdout, []byte(h+"suffix0")) {
			err = fmt.Errorf("%s: the Result lost the command's output: %q", h, res.Stdout)
		}
		return err
	})
	if err := sum.Err(); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	for _, gone := range []string{"suffix0", "prefix0", "lab-bench-key", "AUTH_tk"} {
		if strings.Contains(out, gone) {
			t.Errorf("live output holds %q:\n%s", gone, out)
		}
	}
	var want []string
	for _, h := range p.Hosts() {
		want = append(want, h+": swift_hash_path_suffix = "+secrets.Masked, h+": name = gold",
			h+": user_bench_bench = "+secrets.Masked, h+": token "+secrets.Masked, h+"! warn "+h+" "+secrets.Masked)
	}
	for _, l := range want {
		if !strings.Contains(out, l+"\n") {
			t.Errorf("live output lacks %q:\n%s", l, out)
		}
	}
}

func TestQuietRunIsCapturedNotStreamed(t *testing.T) {
	var buf bytes.Buffer
	p, _ := newTestPool(t, 1, Output(&buf, nil))
	res, err := p.Run(Quiet(context.Background()), "h0", "echo data; echo err >&2")
	if err != nil {
		t.Fatal(err)
	}
	if string(res.Stdout) != "data\n" || string(res.Stderr) != "err\n" {
		t.Fatalf("result = %q, %q", res.Stdout, res.Stderr)
	}
	if _, err := p.Run(context.Background(), "h0", "echo progress"); err != nil {
		t.Fatal(err)
	}
	if buf.String() != "h0: progress\n" {
		t.Fatalf("live output = %q, want only the command that is not quiet", buf.String())
	}
}
