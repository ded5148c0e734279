package cluster

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"

	"benchbed/plan"
	"benchbed/plan/optcheck"
	"benchbed/remote"
	"benchbed/templates/catalog"
)

// HostCatalog is the catalog of Swift's options that hosts run, read from
// their own Swift.
type HostCatalog struct {
	Hosts   []string `json:"hosts"`
	Version string   `json:"swift_version"` // "" when no Swift could be read
	// From says where the catalog came from: "the hosts' sample confs
	// (/usr/share/doc/swift*/examples)", "benchbed's catalog of Swift
	// 2.30.1" (no samples on the hosts), or why there is none.
	From    string           `json:"from"`
	Catalog *catalog.Catalog `json:"-"`
}

// readSamplesScript prints the host's Swift version and each of its sample
// confs once (Debian's examples, gzipped or not), each after a "==> PATH"
// line. The system's Python comes first: Swift's packages install there.
const readSamplesScript = `v=
for py in /usr/bin/python3 python3; do v=$($py -c 'import swift; print(swift.__version__)' 2>/dev/null) && break; done
echo "version $v"
seen=" "
for f in /usr/share/doc/swift*/examples/*.conf /usr/share/doc/swift*/examples/*.conf.gz; do
  [ -f "$f" ] || continue
  b=${f##*/}; b=${b%.gz}
  case "$seen" in *" $b "*) continue ;; esac
  seen="$seen$b "
  echo "==> $f"
  case "$f" in *.gz) zcat "$f" ;; *) cat "$f" ;; esac
done`

// HostCatalogs reads every Swift host's version and sample confs and
// returns a catalog per group of hosts whose samples and roles are the
// same.
func HostCatalogs(ctx context.Context, p Runner, tb *plan.Testbed) ([]HostCatalog, error) {
	var mu sync.Mutex
	groups := map[string]*HostCatalog{}
	var order []string
	hosts := Names(swiftHosts(tb))
	err := p.FanOut(ctx, hosts, func(ctx context.Context, host string) error {
		res, err := p.Run(remote.Quiet(ctx), host, readSamplesScript)
		if err != nil {
			return fmt.Errorf("%s: reading Swift's sample confs: %w", host, err)
		}
		// One catalog per Swift and roles: an error names only the hosts
		// that run the service it is about.
		roles := slices.Sorted(slices.Values(tb.Host(host).Roles))
		key := fmt.Sprintf("%x %s", sha256.Sum256(res.Stdout), strings.Join(roles, ","))
		mu.Lock()
		defer mu.Unlock()
		if g := groups[key]; g != nil {
			g.Hosts = append(g.Hosts, host)
			return nil
		}
		hc := hostCatalog(res.Stdout)
		hc.Hosts = []string{host}
		groups[key], order = &hc, append(order, key)
		return nil
	}).Err()
	out := make([]HostCatalog, 0, len(order))
	for _, k := range order {
		g := groups[k]
		slices.SortFunc(g.Hosts, func(a, b string) int { return slices.Index(hosts, a) - slices.Index(hosts, b) })
		out = append(out, *g)
	}
	slices.SortFunc(out, func(a, b HostCatalog) int { return slices.Index(hosts, a.Hosts[0]) - slices.Index(hosts, b.Hosts[0]) })
	return out, err
}

// hostCatalog builds the catalog from readSamplesScript's output: the
// samples, else benchbed's catalog of the host's version, else none.
func hostCatalog(out []byte) HostCatalog {
	version, files := splitSamples(out)
	if version == "" {
		return HostCatalog{From: "no Swift found (python3 cannot import swift)"}
	}
	if len(files) > 0 {
		if c, err := catalog.FromSamples(version, "the host's sample confs", files); err == nil {
			return HostCatalog{Version: version, From: "the hosts' own sample confs (/usr/share/doc/swift*/examples)", Catalog: c}
		}
	}
	if c, err := catalog.Load(version); err == nil {
		return HostCatalog{Version: version, From: "benchbed's catalog of Swift " + version + " (no sample confs on the hosts)", Catalog: c}
	}
	return HostCatalog{Version: version, From: "none: no sample confs on the hosts and no catalog of Swift " + version + " in benchbed"}
}

// splitSamples reads the version line and the "==> PATH" sections.
func splitSamples(out []byte) (string, map[string]io.Reader) {
	version, rest, _ := bytes.Cut(out, []byte("\n"))
	files := map[string]io.Reader{}
	for _, part := range bytes.Split(rest, []byte("==> "))[1:] {
		name, body, _ := bytes.Cut(part, []byte("\n"))
		files[string(name)] = bytes.NewReader(body)
	}
	return strings.TrimSpace(strings.TrimPrefix(string(version), "version")), files
}

// swiftHosts are the hosts that run a Swift service.
func swiftHosts(tb *plan.Testbed) []*plan.Host {
	var out []*plan.Host
	for _, h := range tb.Hosts {
		for _, s := range tb.Services {
			if h.HasRole(s.Role) {
				out = append(out, h)
				break
			}
		}
	}
	return out
}

// CheckOptions checks every Swift service's settings, and every variant's
// set blocks, against the Swift each host runs (HostCatalogs): an option
// that Swift lacks is an error naming the hosts, the file and line. It
// returns the catalogs used, for the run directory.
func CheckOptions(ctx context.Context, p Runner, tb *plan.Testbed) ([]HostCatalog, error) {
	cats, err := HostCatalogs(ctx, p, tb)
	if err != nil {
		return cats, err
	}
	var errs []error
	for _, hc := range cats {
		if hc.Catalog == nil {
			continue
		}
		for _, d := range optcheck.CheckAgainst(tb, hc.Catalog, hostRoles(tb, hc.Hosts)) {
			errs = append(errs, fmt.Errorf("%s (Swift %s, from %s): %s: %s; %s",
				strings.Join(hc.Hosts, ", "), hc.Version, hc.From, d.Subject, d.Summary, d.Detail))
		}
	}
	return cats, errors.Join(errs...)
}

// SweepPreflight is a sweep's check of the hosts before anything
// changes: reachable, with the commands a sweep runs (the table written to
// log when one is not), their swift.conf's policies (SweepPolicies), then
// the settings against each host's Swift (CheckOptions), whose catalogs it
// returns (nil when an earlier check failed).
func SweepPreflight(ctx context.Context, p *remote.Pool, tb *plan.Testbed, log io.Writer) ([]HostCatalog, error) {
	rep := remote.Preflight(ctx, p, []string{"python3", "ss", "sha256sum", "cp", "date"})
	if err := rep.Err(); err != nil {
		if log != nil {
			_ = rep.Render(log)
		}
		return nil, err
	}
	if err := SweepPolicies(ctx, p, tb); err != nil {
		return nil, err
	}
	return CheckOptions(ctx, p, tb)
}

// hostRoles are the roles of the named hosts.
func hostRoles(tb *plan.Testbed, names []string) []string {
	var out []string
	for _, h := range tb.Hosts {
		if slices.Contains(names, h.Name) {
			out = append(out, h.Roles...)
		}
	}
	return out
}
