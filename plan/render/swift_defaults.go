package render

import (
	"benchbed/plan/optcheck"
	"benchbed/templates"
	"benchbed/templates/catalog"
)

// swiftDefaults fills each change's Default where one side leaves the key
// unset and the catalog documents Swift's default for it in c's conf.
func swiftDefaults(cat *catalog.Catalog, c *Conf, changes []templates.Change) {
	if cat == nil || c.Service == nil {
		return
	}
	conf := optcheck.ConfOf(c.Service)
	if conf == "" {
		return
	}
	uses := catalog.Uses(confText(c.File))
	for i, ch := range changes {
		if ch.Old != nil && ch.New != nil {
			continue
		}
		changes[i].Default, _ = cat.DefaultOf(conf, ch.Section, uses[ch.Section], ch.Key)
	}
}

// confText is the file's sections and use lines, what catalog.Uses reads.
func confText(f *templates.File) string {
	text := ""
	for _, s := range f.Sections {
		text += "[" + s.Name + "]\n"
		if e := s.Get("use"); e != nil {
			text += "use = " + e.Value + "\n"
		}
	}
	return text
}
