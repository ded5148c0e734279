package cluster

import (
	"strings"
	"testing"

	"benchbed/internal/labtest"
	"benchbed/plan/render"
	"benchbed/templates/secrets"
)

// TestLiveMaskHidesTheLabsSecrets streams the lab's swift.conf (with
// hashes) and proxy-server.conf (tempauth's key) through liveMask, the two
// hosts' lines interleaved as FanOut's are, and checks what would be printed.
func TestLiveMaskHidesTheLabsSecrets(t *testing.T) {
	tb := labtest.LabTestbed(t)
	r := labtest.RenderVariant(t, tb, tb.Variants[0].Name)
	swiftConf := r.Conf("proxy1", render.SwiftConfPath)
	proxyConf := r.Conf("proxy1", "/etc/swift/proxy-server.conf")
	if swiftConf == nil || proxyConf == nil {
		t.Fatal("the lab renders no swift.conf or proxy-server.conf on proxy1")
	}
	conf := strings.NewReplacer("benchbed-suffix", "5eed0fc0ffee1234", "benchbed-prefix", "feedfacecafe5678").
		Replace(string(swiftConf.File.Bytes()))
	a := strings.Split(conf, "\n")
	b := strings.Split(string(proxyConf.File.Bytes())+"X-Auth-Token: AUTH_tk0123abcd\n", "\n")
	newMask := liveMask(tb)
	ma, mb := newMask(), newMask()
	var out strings.Builder
	for i := 0; i < max(len(a), len(b)); i++ {
		if i < len(a) {
			out.WriteString("stor1: " + ma(a[i]) + "\n")
		}
		if i < len(b) {
			out.WriteString("proxy1: " + mb(b[i]) + "\n")
		}
	}
	for _, gone := range []string{"5eed0fc0ffee1234", "feedfacecafe5678", "lab-bench-key", "AUTH_tk"} {
		if strings.Contains(out.String(), gone) {
			t.Errorf("the live lines hold %q:\n%s", gone, out.String())
		}
	}
	for _, kept := range []string{"stor1: swift_hash_path_suffix = " + secrets.Masked, "proxy1: [filter:tempauth]",
		"proxy1: user_bench_bench = " + secrets.Masked, "stor1: [storage-policy:0]", "proxy1: bind_port = 8080"} {
		if !strings.Contains(out.String(), kept+"\n") {
			t.Errorf("the live lines lack %q:\n%s", kept, out.String())
		}
	}
}
