// Package catalog knows Swift's configuration options: for each conf file
// a Swift server reads (object-server, proxy-server, ...), every section and
// key, its default and its type, per Swift version. A catalog is built from
// the sample confs that every Swift install carries (Debian ships them under
// /usr/share/doc/swift*/examples/, upstream keeps them as
// etc/*.conf-sample): their commented "# key = default" lines are Swift's own
// documentation of its options. Only names, defaults and inferred types are
// kept, never the samples' text.
//
// The catalogs of the Swift versions that current Debian and Ubuntu ship are
// embedded (data/swift-VERSION.json, made by cmd/swiftcatalog); a host's own
// samples can be read into a Catalog at run time (FromSamples), so that a
// host is checked against the Swift it runs. Check tells whether a section,
// key and value are ones that Swift reads, with the nearest known names when
// not; retired options (templates.RetiredOptions) are warnings.
package catalog
