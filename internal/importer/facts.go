package importer

// Facts are what one host showed to the probe.
type Facts struct {
	Host       string            // the name it was reached by (a command-line HOST, or a ring address)
	Version    string            // Swift's version ("" when python3 cannot import swift)
	Addrs      []string          // its addresses (hostname -I)
	SwiftInit  bool              // swift-init is installed
	Confs      map[string][]byte // /etc/swift/*.conf by path
	Rings      []RingDump        // builders and ring files in /etc/swift
	RingError  string            // why the rings could not be read ("" = read)
	Procs      []Proc            // Swift's processes of its pid files or in the host's own namespaces
	Elsewhere  int               // Swift's processes in other namespaces of the same machine
	PidFiles   map[int]string    // pid -> pid file under /var/run/swift
	DevicesDir string            // the object server's devices (default /srv/node)
	DeviceDirs []string          // directories under DevicesDir
	Mounts     map[string]Mount  // mount point under DevicesDir -> its mount
	Reread     *Reread           // why and how often the host was read again (nil = read once)
}

// RingDump is one ring as a builder file or a ring file holds it.
type RingDump struct {
	Kind         string  `json:"kind"` // "builder" or "ring"
	Name         string  `json:"name"` // "object", "object-1", "container", "account"
	PartPower    int     `json:"part_power"`
	Replicas     float64 `json:"replicas"`
	MinPartHours int     `json:"min_part_hours"` // builders only
	Sum          string  `json:"sum"`            // ring files: md5 of the file
	Devs         []Dev   `json:"devs"`
	Error        string  `json:"error"` // it could not be read
}

// Dev is one ring device.
type Dev struct {
	ID     int     `json:"id"`
	Region int     `json:"region"`
	Zone   int     `json:"zone"`
	IP     string  `json:"ip"`
	Port   int     `json:"port"`
	Device string  `json:"device"`
	Weight float64 `json:"weight"`
}

// Proc is one process of a Swift program.
type Proc struct {
	PID, PPID, PGID int
	Unit            string   // its systemd service ("" when none)
	Args            []string // its command line
}

// Mount is a filesystem mounted under the devices directory.
type Mount struct {
	Source, FSType string
}

// ringDump returns the host's builder of ring name, else its ring file,
// else nil.
func (f *Facts) ringDump(name string) *RingDump {
	var file *RingDump
	for i := range f.Rings {
		r := &f.Rings[i]
		if r.Name != name || r.Error != "" {
			continue
		}
		if r.Kind == "builder" {
			return r
		}
		file = r
	}
	return file
}

// ringFile returns the host's ring file of ring name, or nil.
func (f *Facts) ringFile(name string) *RingDump {
	for i := range f.Rings {
		if r := &f.Rings[i]; r.Name == name && r.Kind == "ring" && r.Error == "" {
			return r
		}
	}
	return nil
}

// hasAddr reports whether ip is one of the host's addresses.
func (f *Facts) hasAddr(ip string) bool {
	for _, a := range f.Addrs {
		if a == ip {
			return true
		}
	}
	return false
}

// hasRingFiles reports whether the host has any ring file.
func (f *Facts) hasRingFiles() bool {
	for _, r := range f.Rings {
		if r.Kind == "ring" {
			return true
		}
	}
	return false
}
