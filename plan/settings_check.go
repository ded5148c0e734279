package plan

// SettingsCheck is what checking a testbed's settings against Swift's
// option catalog found beside its errors and warnings: what plan shows so
// that a reader knows what was and was not checked.
type SettingsCheck struct {
	// Catalog names the catalog used: "Swift 2.30.1" or "any of 2.29.2,
	// 2.30.1, ..." when the testbed names no swift_version.
	Catalog string
	// Unchecked are the settings the catalog did not check, one line each:
	// "service object-server [DEFAULT] foo: unchecked = [...]".
	Unchecked []string
	// AtDefault are the settings whose value is Swift's documented
	// default, one line each: "variant x, service y [DEFAULT] workers = auto".
	AtDefault []string
}
