package metricstest

import (
	"encoding/json"
	"os"
	"testing"
)

// Query is one query of a Grafana dashboard: where it is, its PromQL and
// its legend.
type Query struct {
	Where, Expr, Legend string
}

// dashboard is what Dashboard reads of a Grafana dashboard's JSON.
type dashboard struct {
	Panels []struct {
		Title   string `json:"title"`
		Targets []struct {
			Expr   string `json:"expr"`
			Legend string `json:"legendFormat"`
		} `json:"targets"`
	} `json:"panels"`
	Annotations struct {
		List []struct {
			Name  string `json:"name"`
			Expr  string `json:"expr"`
			Title string `json:"titleFormat"`
		} `json:"list"`
	} `json:"annotations"`
	Templating struct {
		List []struct {
			Name  string `json:"name"`
			Type  string `json:"type"`
			Query string `json:"query"`
		} `json:"list"`
	} `json:"templating"`
}

// Dashboard reads the Grafana dashboard at path and returns every query
// of its panels, annotations and query variables.
func Dashboard(t testing.TB, path string) []Query {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var out []Query
	for _, p := range d.Panels {
		if len(p.Targets) == 0 {
			t.Errorf("%s: panel %q has no query", path, p.Title)
		}
		for _, q := range p.Targets {
			out = append(out, Query{Where: "panel " + p.Title, Expr: q.Expr, Legend: q.Legend})
		}
	}
	for _, a := range d.Annotations.List {
		out = append(out, Query{Where: "annotation " + a.Name, Expr: a.Expr, Legend: a.Title})
	}
	for _, v := range d.Templating.List {
		if v.Type == "query" {
			out = append(out, Query{Where: "variable " + v.Name, Expr: v.Query})
		}
	}
	return out
}
