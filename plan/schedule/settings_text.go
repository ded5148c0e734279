package schedule

import (
	"fmt"
	"strings"
)

// writeSettingsCheck writes which catalog of Swift's options checked the
// settings, the settings that equal Swift's default (a variant that sets
// only those changes nothing), and what went unchecked.
func writeSettingsCheck(b *strings.Builder, sc SettingsCheckJSON) {
	if sc.Catalog == "" {
		return
	}
	fmt.Fprintf(b, "\nsettings: checked against %s's options\n", sc.Catalog)
	if len(sc.AtDefault) > 0 {
		b.WriteString("  equal to Swift's documented default:\n")
		for _, l := range sc.AtDefault {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
	if len(sc.Unchecked) > 0 {
		b.WriteString("  not checked:\n")
		for _, l := range sc.Unchecked {
			fmt.Fprintf(b, "    %s\n", l)
		}
	}
}
