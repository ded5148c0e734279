package importer

import (
	"fmt"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclwrite"

	"benchbed/templates"
)

// dWorkload is the one workload an import writes, a starting point: the
// language needs one, and a sweep of the imported testbed runs it (its
// prefill block puts its initial objects first).
type dWorkload struct {
	URL     string   // the first proxy's auth URL
	User    string   // "account:user" of its first tempauth user
	Var     string   // the variable of that user's key
	Clients []string // the client hosts, else the first proxy
}

// setWorkload points the workload at the first proxy's tempauth user, whose
// key becomes a sensitive variable.
func (d *draft) setWorkload() {
	proxies := d.hostsWithRole("proxy")
	if len(proxies) == 0 {
		d.Diags.add(Error, "", "no host runs a proxy server: the workload has no URL to use")
		return
	}
	p := proxies[0]
	w := &dWorkload{URL: "http://" + p.Address + ":8080/auth/v1.0", User: "bench:bench", Var: "auth_key"}
	text := p.Facts.Confs[d.proxyConf()]
	f, err := templates.Parse(p.Name, text)
	if err == nil {
		if port, ok := f.Value("DEFAULT", "bind_port"); ok {
			w.URL = "http://" + p.Address + ":" + port + "/auth/v1.0"
		}
		d.tempauthUser(p, f, w)
	}
	for _, h := range d.hostsWithRole("client") {
		w.Clients = append(w.Clients, h.Name)
	}
	if len(w.Clients) == 0 {
		w.Clients, p.Roles = []string{p.Name}, append(p.Roles, "client")
		d.Diags.add(Note, "", "no host read is a client: %s gets role client and runs the workload's agents (name a client host too, or edit the testbed)", p.Name)
	}
	d.Workload = w
}

// proxyConf is the proxy server's conf path (its service's, else Debian's).
func (d *draft) proxyConf() string {
	for _, s := range d.Services {
		if s.Role == "proxy" {
			return s.Path
		}
	}
	return "/etc/swift/proxy-server.conf"
}

// tempauthUser takes f's first tempauth user into w, its key into a
// sensitive variable; without one, w keeps bench:bench and a variable
// auth_key the user must give.
func (d *draft) tempauthUser(p *dHost, f *templates.File, w *dWorkload) {
	for _, s := range f.Sections {
		if use, _ := f.Value(s.Name, "use"); use != "egg:swift#tempauth" {
			continue
		}
		for _, e := range s.Entries {
			rest, ok := strings.CutPrefix(e.Key, "user_")
			acct, user, ok2 := strings.Cut(rest, "_")
			if !ok || !ok2 {
				continue
			}
			key, _, _ := strings.Cut(e.Value, " ")
			w.User, w.Var = acct+":"+user, "tempauth_"+rest+"_key"
			d.addVar(dVar{Name: w.Var, Value: key, Description: fmt.Sprintf("[%s] %s's key of %s:%s", s.Name, e.Key, p.Name, d.proxyConf())})
			return
		}
	}
	d.addVar(dVar{Name: w.Var, Description: "the key of the workload's user (no tempauth user found on " + p.Name + ")"})
	d.Diags.add(Warning, p.Name, "no tempauth user in %s: the workload's user and key (variable auth_key) are yours to give", d.proxyConf())
}

// workloadText is the workload block.
const workloadText = `workload "get" {
  # A starting point: 64 KiB GETs of 1000 objects by 16 users for 20 s.
  scenario = {
    sizes           = [{ name = "64KiB", size_min = 65536, size_max = 65536 }]
    initial_files   = { "64KiB" = 1000 }
    container_base  = "benchbed_import"
    container_count = 10
    crud_profile    = [0, 1, 0, 0]
    user_count      = 16
    run_seconds     = 20
  }
  clients = %s
  auth {
    url  = %s
    user = %s
    key  = var.%s
  }
}

# Its initial objects, put once before the sweep's cells.
prefill {
  workloads = ["get"]
}
`

// writeWorkload appends the workload block.
func (d *draft) writeWorkload(b *hclwrite.Body) {
	w := d.Workload
	if w == nil {
		return
	}
	var clients []string
	for _, c := range w.Clients {
		clients = append(clients, string(quoted(c)))
	}
	src := fmt.Sprintf(workloadText, "["+strings.Join(clients, ", ")+"]", quoted(w.URL), quoted(w.User), w.Var)
	f, diags := hclwrite.ParseConfig([]byte(src), "workload", hcl.InitialPos)
	if diags.HasErrors() {
		panic(fmt.Sprintf("importer: the workload does not parse: %v", diags)) // a bug of workloadText
	}
	b.AppendNewline()
	for i, blk := range f.Body().Blocks() {
		if i > 0 {
			b.AppendNewline() // the block's comment comes with it
		}
		b.AppendBlock(blk)
	}
}
