package report

import (
	_ "embed"
	"encoding/base64"
	"encoding/xml"
	"errors"
	"fmt"
	"html/template"
	"io"
	"slices"
	"strings"
	"time"

	"benchbed/results/rundir"
)

//go:embed report.html.tmpl
var pageText string

var page = template.Must(template.New("report").Parse(pageText))

// htmlFigure is a plot as the page shows it.
type htmlFigure struct {
	Name, Title string
	SVG         template.HTML // checked by safeSVG, or an <img> of the PNG
}

// htmlFailed is a failed cell as the page shows it.
type htmlFailed struct{ Name, Status, Error string }

// pageData is what the template fills in; every string is escaped by
// html/template except the figures' SVG, which safeSVG vouches for.
type pageData struct {
	Title, Testbed, Run, Started, Ended string
	Verdict                             *verdictView // the caveats and verdict table; nil without a verdict
	Cells                               int
	Notices, Problems                   []string
	Lead                                []table // before the plots
	Figures                             []htmlFigure
	Tables                              []table
	Failed                              []htmlFailed
	Env                                 []rundir.HostEnv
	Steps                               table
	TestbedFile                         string
	Telemetry                           []htmlTelemetry
	TelemetryOverview                   table
	Kernels                             []string // the hosts that share a kernel, a line a group
}

// htmlTelemetry is a cell's telemetry section with its plots.
type htmlTelemetry struct {
	telemetrySection
	Figures []htmlFigure
}

// SharedText says which disks share a device, "" when none do.
func (t htmlTelemetry) SharedText() string {
	if len(t.Shared) == 0 {
		return ""
	}
	return sharedText(t.Shared)
}

// htmlFigures splits the figures into the run's and each telemetry
// section's.
func htmlFigures(figs []Figure, secs []telemetrySection) ([]htmlFigure, []htmlTelemetry) {
	tel := make([]htmlTelemetry, len(secs))
	var run []htmlFigure
	for i, s := range secs {
		tel[i].telemetrySection = s
	}
	for _, f := range figs {
		hf := htmlFig(f)
		i := slices.IndexFunc(secs, func(s telemetrySection) bool { return s.Cell == f.Cell })
		switch {
		case f.Cell == "":
			run = append(run, hf)
		case i >= 0:
			tel[i].Figures = append(tel[i].Figures, hf)
		default: // plots of a cell whose summary has no telemetry
			tel = append(tel, htmlTelemetry{telemetrySection: telemetrySection{Cell: f.Cell,
				Heading: "Telemetry of " + f.Cell + " (not summarised)"}, Figures: []htmlFigure{hf}})
			secs = append(secs, tel[len(tel)-1].telemetrySection)
		}
	}
	return run, tel
}

// htmlFig inlines a figure's SVG, or its PNG when the SVG is not safe.
func htmlFig(f Figure) htmlFigure {
	hf := htmlFigure{Name: f.Name, Title: f.Title}
	if svg, err := safeSVG(f.SVG); err == nil {
		hf.SVG = template.HTML(svg) // #nosec: parsed, no script, no handler
	} else {
		hf.SVG = template.HTML(`<img alt="` + template.HTMLEscapeString(f.Title) +
			`" src="data:image/png;base64,` + base64.StdEncoding.EncodeToString(f.PNG) + `">`)
	}
	return hf
}

// WriteHTML writes one self-contained page: the run's dates, its caveats
// and verdict first, the notices, the ssbench-style and repeats' tables,
// the plots inline, the tables, each cell's telemetry folded, the failed
// cells with their errors, the hosts' environment, the journal's steps
// (folded) and where the testbed file is (its text is not shown: it may
// hold secrets).
func (r *Report) WriteHTML(w io.Writer, figs []Figure) error {
	s := r.Run.Summary
	d := pageData{Title: r.Title(), Testbed: s.Testbed, Run: s.Run, Cells: len(s.Cells),
		Notices: r.Notices, Problems: r.Problems, Env: r.Env, Steps: r.stepTable(), TestbedFile: r.TestbedFile,
		Tables: append([]table{r.metricTable(), r.opTable(), r.endpointTable(), r.errorTable()},
			append(append(append(r.fillTables(), r.faultTables()...), r.searchTables()...), r.envTable())...)}
	if !r.Started.IsZero() {
		d.Started = r.Started.UTC().Format(time.RFC3339)
	}
	if !r.Ended.IsZero() {
		d.Ended = r.Ended.UTC().Format(time.RFC3339)
	}
	d.Verdict = newVerdictView(r.Verdict)
	d.Lead = r.leadTables()
	d.Figures, d.Telemetry = htmlFigures(figs, r.telemetrySections())
	d.TelemetryOverview = r.telemetryOverview()
	for _, g := range r.kernelGroups() {
		d.Kernels = append(d.Kernels, g.Text())
	}
	for _, c := range r.Failed() {
		d.Failed = append(d.Failed, htmlFailed{Name: cellName(c), Status: c.Status, Error: c.Error})
	}
	if err := page.Execute(w, d); err != nil {
		return fmt.Errorf("report.html: %w", err)
	}
	return nil
}

// safeSVG returns the <svg> element of an SVG document, without its XML
// prolog, after checking that it is well-formed XML with no script,
// foreign object or event handler, so that it can be inlined in the page.
func safeSVG(doc []byte) (string, error) {
	s := string(doc)
	i := strings.Index(s, "<svg")
	if i < 0 {
		return "", errors.New("svg: no <svg> element")
	}
	s = s[i:]
	dec := xml.NewDecoder(strings.NewReader(s))
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return s, nil
		}
		if err != nil {
			return "", fmt.Errorf("svg: %w", err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok {
			continue
		}
		switch strings.ToLower(se.Name.Local) {
		case "script", "foreignobject", "iframe":
			return "", fmt.Errorf("svg: <%s> element", se.Name.Local)
		}
		for _, a := range se.Attr {
			v := strings.ToLower(strings.TrimSpace(a.Value))
			if strings.HasPrefix(strings.ToLower(a.Name.Local), "on") || strings.HasPrefix(v, "javascript:") {
				return "", fmt.Errorf("svg: attribute %s", a.Name.Local)
			}
		}
	}
}
