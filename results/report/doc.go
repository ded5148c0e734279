// Package report turns a sweep's run directory into tables (text,
// markdown, csv, json), plots (SVG, PNG) and one self-contained HTML page.
// It reads only what is inside the run directory, which the sweep has
// already masked: nothing here ever sees a secret.
package report
