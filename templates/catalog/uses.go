package catalog

import (
	"bufio"
	"strings"
)

// Uses returns, for each section of an INI text (a template or a conf),
// the paste.deploy entry point its "use" line names ("filter:cache" ->
// "egg:swift#memcache"). Lines that are no plain section header or use
// line (a template's actions among them) are skipped.
func Uses(text string) map[string]string {
	out := map[string]string{}
	sec := ""
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "[") && strings.HasSuffix(line, "]") {
			sec = strings.TrimSpace(line[1 : len(line)-1])
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && sec != "" && strings.TrimSpace(k) == "use" {
			out[sec] = strings.TrimSpace(v)
		}
	}
	return out
}
