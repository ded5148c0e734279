package importer

import (
	"strings"
	"testing"
)

// facts returns the lab's facts of host name.
func factsOf(facts []*Facts, name string) *Facts {
	for _, f := range facts {
		if f.Host == name {
			return f
		}
	}
	return nil
}

// TestBuildReportsHostsThatDisagree: an object server conf that differs
// between stor1 and stor2, and a ring file out of sync, are errors naming
// the host, the key and both values; the testbed is still written, from
// the first host, and nothing is averaged.
func TestBuildReportsHostsThatDisagree(t *testing.T) {
	_, facts := labFacts(t)
	stor2 := factsOf(facts, "stor2")
	c := string(stor2.Confs["/etc/swift/object-server.conf"])
	stor2.Confs["/etc/swift/object-server.conf"] = []byte(strings.Replace(c, "workers = 2", "workers = 4", 1))
	var keep []RingDump
	for _, r := range stor2.Rings {
		if r.Name == "container" {
			r.Sum = "another"
		}
		if r.Name != "account" {
			keep = append(keep, r)
		}
	}
	stor2.Rings = keep
	res := Build(facts, Options{})
	var errs []string
	for _, d := range res.Diags {
		if d.Severity == Error {
			errs = append(errs, d.String())
		}
	}
	joined := strings.Join(errs, "\n")
	for _, want := range []string{
		`stor2: /etc/swift/object-server.conf differs from stor1's: [DEFAULT] workers "2" there, "4" here`,
		"ring container is out of sync", "stor2 (md5 another)",
		"stor2: ring account is out of sync: this host has other rings' files but not account.ring.gz",
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("no %q among the errors:\n%s", want, joined)
		}
	}
	if !strings.Contains(string(res.Text), "workers           = 2") || strings.Contains(string(res.Text), "workers           = 3") {
		t.Errorf("the testbed does not keep stor1's workers:\n%s", res.Text)
	}
	if !strings.Contains(string(res.Text), "# error: stor2: /etc/swift/object-server.conf differs") {
		t.Errorf("the testbed's head does not say what it could not describe:\n%s", res.Text)
	}
}

// TestBuildPortPerDisk: object devices on port_base + their index on every
// host become port_base and a baseline with one port per disk, rendered
// and laid out as the hosts have them.
func TestBuildPortPerDisk(t *testing.T) {
	_, facts := labFacts(t)
	for _, f := range facts {
		for i := range f.Rings {
			r := &f.Rings[i]
			if r.Name != "object" {
				continue
			}
			n := map[string]int{}
			for j := range r.Devs {
				r.Devs[j].Port = 6300 + n[r.Devs[j].IP]
				n[r.Devs[j].IP]++
			}
		}
	}
	res := Build(facts, Options{})
	text := string(res.Text)
	if res.Diags.HasErrors() {
		t.Errorf("diagnostics: %v", res.Diags)
	}
	for _, want := range []string{"port_base      = 6300", "port           = 6200", "ring \"object\" {\n    port_per_disk = true"} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

// TestBuildRingWithoutBuilder: rings read from ring files alone are
// described (min_part_hours left to its default) with a note.
func TestBuildRingWithoutBuilder(t *testing.T) {
	_, facts := labFacts(t)
	p := factsOf(facts, "proxy1")
	var keep []RingDump
	for _, r := range p.Rings {
		if r.Kind == "ring" {
			keep = append(keep, r)
		}
	}
	p.Rings = keep
	res := Build(facts, Options{})
	if res.Diags.HasErrors() {
		t.Errorf("diagnostics: %v", res.Diags)
	}
	if !strings.Contains(string(res.Text), "# from proxy1:/etc/swift/object.ring.gz") || !strings.Contains(res.Diags[0].String(), "no host has its builder") {
		t.Errorf("diagnostics %v; testbed:\n%s", res.Diags, res.Text)
	}
}

func TestHostNameAndDiscovery(t *testing.T) {
	cfg := []byte("Host *\n  User root\n  Port 2200\nHost stor9 s9\n  HostName 10.0.0.9\n  Port 22\nHost aio\n  HostName=127.0.0.1\n  Port 2297\n")
	if got := HostName("10.0.0.9", cfg); got != "stor9" {
		t.Errorf("HostName = %q, want the alias stor9", got)
	}
	if got := SSHPort("aio", cfg); got != 2297 {
		t.Errorf("SSHPort(aio) = %d", got)
	}
	if got := SSHPort("s9", cfg); got != 22 {
		t.Errorf("SSHPort(s9) = %d", got)
	}
	if got := HostName("10.0.0.8", cfg); got != "host-10-0-0-8" {
		t.Errorf("HostName = %q", got)
	}
	_, facts := labFacts(t)
	if got := DiscoverAddrs(facts); len(got) != 0 {
		t.Errorf("every host read, DiscoverAddrs = %v", got)
	}
	if got := DiscoverAddrs(facts[:2]); strings.Join(got, " ") != "198.18.0.22" {
		t.Errorf("proxy1 and stor1 read: DiscoverAddrs = %v, want stor2's address", got)
	}
	res := Build(facts[:2], Options{})
	if !res.Diags.HasErrors() || !strings.Contains(string(res.Text), "198.18.0.22, which no host read has") {
		t.Errorf("a ring device on no host read: %v", res.Diags)
	}
}

// TestBuildUnparsableConfQuotesNoLine: a conf Swift could not read is an
// error naming the host, file and line, never quoting the line.
func TestBuildUnparsableConfQuotesNoLine(t *testing.T) {
	_, facts := labFacts(t)
	s1 := factsOf(facts, "stor1")
	s1.Confs["/etc/swift/object-server.conf"] = []byte("  password-like-line\n[DEFAULT]\n")
	res := Build(facts, Options{})
	joined := ""
	for _, d := range res.Diags {
		joined += d.String() + "\n"
	}
	if strings.Contains(joined+string(res.Text), "password-like-line") {
		t.Errorf("the conf's line is quoted:\n%s", joined)
	}
	if !strings.Contains(joined, "error: stor1: stor1:/etc/swift/object-server.conf:1: not INI") {
		t.Errorf("no error naming the file and line:\n%s", joined)
	}
}

// TestBuildPolicies: swift.conf's storage policies become policy blocks
// (a second policy on ring object-1), and the baseline renders swift.conf
// setting for setting as the hosts have it.
func TestBuildPolicies(t *testing.T) {
	_, facts := labFacts(t)
	for _, f := range facts {
		c, ok := f.Confs[swiftConfPath]
		if !ok {
			continue
		}
		c2 := strings.Replace(string(c), "[storage-policy:0]\nname = Policy-0\ndefault = yes\n",
			"[storage-policy:0]\nname = gold\naliases = yellow, orange\ndefault = yes\n\n[storage-policy:1]\nname = silver\npolicy_type = replication\n", 1)
		if c2 == string(c) {
			t.Fatalf("the lab's swift.conf has no lone Policy-0:\n%s", c)
		}
		f.Confs[swiftConfPath] = []byte(c2)
		var extra []RingDump
		for _, r := range f.Rings {
			if r.Name == "object" {
				r.Name = "object-1"
				extra = append(extra, r)
			}
		}
		f.Rings = append(f.Rings, extra...)
	}
	res := Build(facts, Options{})
	text := string(res.Text)
	if res.Diags.HasErrors() {
		t.Errorf("diagnostics: %v\n%s", res.Diags, text)
	}
	for _, want := range []string{`policy "gold" {`, `aliases = ["yellow", "orange"]`, `policy "silver" {`, `type  = "replication"`, `ring "object-1" {`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

// TestBuildDefaultsAgainstTheTemplate: a key the template sets and the
// hosts leave unset is written at Swift's default with a comment; a key
// the template lacks is written only when it differs from Swift's default.
func TestBuildDefaultsAgainstTheTemplate(t *testing.T) {
	_, facts := labFacts(t)
	for _, f := range facts {
		c, ok := f.Confs["/etc/swift/object-server.conf"]
		if !ok {
			continue
		}
		c2 := strings.Replace(string(c), "log_facility = LOG_LOCAL2\n", "", 1)
		c2 = strings.Replace(c2, "[DEFAULT]\n", "[DEFAULT]\nfallocate_reserve = 2%\nlog_max_line_length = 0\n", 1)
		f.Confs["/etc/swift/object-server.conf"] = []byte(c2)
	}
	res := Build(facts, Options{})
	text := string(res.Text)
	if res.Diags.HasErrors() {
		t.Errorf("diagnostics: %v", res.Diags)
	}
	for _, want := range []string{`# Swift's default (unset on the host; the built-in template has "LOG_LOCAL2")`, `log_facility = "LOG_LOCAL0"`, `fallocate_reserve = "2%"`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
	if strings.Contains(text, "log_max_line_length") {
		t.Errorf("a key at Swift's default that the template lacks is written:\n%s", text)
	}
}

// TestBuildStoppedServers: servers that do not run are still described
// from their confs (the proxy from its conf alone), each said on stderr.
func TestBuildStoppedServers(t *testing.T) {
	_, facts := labFacts(t)
	for _, f := range facts {
		f.Procs, f.PidFiles = nil, map[int]string{}
	}
	res := Build(facts, Options{})
	text := string(res.Text)
	if !strings.Contains(text, "roles   = [\"proxy\"]") || !strings.Contains(text, `service "proxy-server"`) {
		t.Errorf("the stopped proxy is not described:\n%s", text)
	}
	joined := ""
	for _, d := range res.Diags {
		joined += d.String() + "\n"
	}
	if !strings.Contains(joined, "warning: proxy1: no proxy-server runs here") || !strings.Contains(joined, "object-server runs on none of its hosts: manager systemd is a guess") {
		t.Errorf("diagnostics:\n%s", joined)
	}
}

// TestBuildWithoutClientHost: without a client host among those read, the
// first proxy gets role client and runs the workload's agents.
func TestBuildWithoutClientHost(t *testing.T) {
	_, facts := labFacts(t)
	res := Build(facts[:3], Options{}) // proxy1, stor1, stor2
	text := string(res.Text)
	if res.Diags.HasErrors() || res.Identical != res.Confs {
		t.Errorf("diagnostics: %v", res.Diags)
	}
	for _, want := range []string{`roles   = ["proxy", "client"]`, `clients = ["proxy1"]`} {
		if !strings.Contains(text, want) {
			t.Errorf("no %q in:\n%s", want, text)
		}
	}
}

// TestBuildStoppedServerTakesItsNeighboursManager: the account servers,
// stopped (or restarting) while the hosts are read, are started as the
// other servers of their hosts are (directly, on the lab), not by the
// default manager, which the lab's hosts do not have (an e2e sweep of the
// import failed so: "System has not been booted with systemd").
func TestBuildStoppedServerTakesItsNeighboursManager(t *testing.T) {
	_, facts := labFacts(t)
	for _, f := range facts {
		var keep []Proc
		for _, p := range f.Procs {
			if !strings.Contains(strings.Join(p.Args, " "), "account-server") {
				keep = append(keep, p)
			}
		}
		f.Procs = keep
		for pid, file := range f.PidFiles {
			if strings.Contains(file, "account-server") {
				delete(f.PidFiles, pid)
			}
		}
	}
	res := Build(facts, Options{})
	joined := ""
	for _, d := range res.Diags {
		joined += d.String() + "\n"
	}
	if !strings.Contains(joined, "account-server runs on none of its hosts: manager direct, as the other Swift servers of its hosts") {
		t.Errorf("diagnostics:\n%s", joined)
	}
	text := string(res.Text)
	i := strings.Index(text, `service "account-server"`)
	if i < 0 || !strings.Contains(text[i:min(len(text), i+400)], `manager = "direct"`) {
		t.Errorf("the account server's manager is not direct:\n%s", text)
	}
}
