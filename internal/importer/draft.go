package importer

// draft is the testbed being written: what Build found, in the shape of
// the testbed language.
type draft struct {
	Version  string         // Swift's version on the hosts ("" = unknown)
	Catalog  string         // the catalog's version Build used ("" = none)
	SSH      SSH            // the ssh block
	Ports    map[string]int // host -> SSH port, when not 22
	Hosts    []*dHost       // in the order given, then found
	Rings    []*dRing       // object, object-N, container, account
	Policies []dPolicy      // swift.conf's, nil when the template's Policy-0 is it
	Services []*dService    // proxy, object, container, account
	Vars     []dVar         // the secrets' sensitive variables
	Workload *dWorkload     // nil when there is no proxy
	Diags    Diags
}

// SSH is the ssh block: how the hosts were reached.
type SSH struct {
	User       string
	Config     string
	Identities []string
	KnownHosts []string
}

// dHost is a host block.
type dHost struct {
	Name    string
	Address string
	Roles   []string
	Disks   []*dDisks // its disk groups, in the rings' order
	Facts   *Facts
}

// dDisks is one disks block of a host.
type dDisks struct {
	Group   string
	Names   []string
	Devices []string // block devices mounted at each name ("" for none; nil when none is)
	FSType  string   // their filesystem ("" = none, or not the same)
	Weight  float64
}

// dRing is a ring block.
type dRing struct {
	Name         string
	PartPower    int
	Replicas     float64
	MinPartHours int    // -1 when only a ring file told (it does not keep it)
	Port         int    // one port per host
	PortBase     int    // first port when one port per disk (0 = not)
	Builder      string // the host whose builder it was read from ("" = a ring file)
	From         string // where it was read, for the comment
	Group        string // its disk group
	Devs         []Dev  // the live devices
}

// dPolicy is a policy block, from swift.conf's [storage-policy:N].
type dPolicy struct {
	Index  int
	Name   string
	Keys   map[string]string // the section's keys but name
	Source string
}

// dService is a service block.
type dService struct {
	Name     string // "object-server"
	Role     string
	Path     string // its conf
	Manager  string
	Unit     string   // a systemd unit other than Debian's
	Daemons  []string // background daemons running beside it on every host
	Hosts    []string // the hosts it runs on
	From     string   // the host whose conf its settings come from
	Settings []dSection
	Note     string // a line for its comment
}

// dSection is one section of a service's settings.
type dSection struct {
	Name string
	Keys []dKey
}

// dKey is one setting.
type dKey struct {
	Key, Value string
	Var        string // the sensitive variable holding its secret part ("" = none)
	Rest       string // what follows the secret in the value (tempauth's groups)
	Comment    string
}

// dVar is a sensitive variable.
type dVar struct {
	Name, Description, Value string
}
