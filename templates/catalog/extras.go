package catalog

// What Swift's code reads that its sample confs do not list, kept by hand
// (names and defaults only, read in Swift's own source at each carried
// release). FromSamples applies them, to carried catalogs and hosts' alike.

// inherit says that a section loading entry point egg of conf reads every
// option of another conf's section too.
type inherit struct{ conf, egg, fromConf, fromSection string }

// extra is one option a section loading egg reads beyond its sample's.
type extra struct {
	conf, egg, key, def string
	typ                 Type
}

var (
	// The memcache middleware (load_memcache) reads its own section first
	// and memcache.conf's [memcache] for what it lacks.
	inherits = []inherit{{conf: "proxy-server", egg: "filter:memcache", fromConf: "memcache", fromSection: "memcache"}}
	// max_connections is the name memcache_max_connections replaced; the
	// middleware still reads it when the new name is unset.
	extras = []extra{
		{conf: "proxy-server", egg: "filter:memcache", key: "max_connections", def: "0", typ: TypeInt},
		// proxy_logging reads access_log_statsd_valid_http_methods before
		// the log_statsd_valid_http_methods its sample lists.
		{conf: "proxy-server", egg: "filter:proxy_logging", key: "access_log_statsd_valid_http_methods",
			def: "GET,HEAD,POST,PUT,DELETE,COPY,OPTIONS", typ: TypeString},
	}
)

// applyExtras adds inherits and extras to c where their confs and
// sections exist.
func (c *Catalog) applyExtras() {
	for _, in := range inherits {
		to, from := c.eggSection(in.conf, in.egg), c.Conf(in.fromConf)
		if to == nil || from == nil || from.Sections[in.fromSection] == nil {
			continue
		}
		for k, o := range from.Sections[in.fromSection].Options {
			if _, ok := to.Options[k]; !ok {
				to.Options[k] = o
			}
		}
	}
	for _, e := range extras {
		if to := c.eggSection(e.conf, e.egg); to != nil {
			if _, ok := to.Options[e.key]; !ok {
				to.Options[e.key] = Option{Default: e.def, Type: e.typ}
			}
		}
	}
}

// eggSection is the section of conf that loads egg, or nil.
func (c *Catalog) eggSection(conf, egg string) *Section {
	cf := c.Conf(conf)
	if cf == nil {
		return nil
	}
	return cf.Sections[cf.Eggs[egg]]
}
