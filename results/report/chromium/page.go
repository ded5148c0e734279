package chromium

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

// note records the page's errors and its load event.
func (b *Browser) note(m message) {
	var p struct {
		Type  string                `json:"type"`
		Args  []struct{ Value any } `json:"args"`
		Entry struct {
			Level, Text, URL string
		} `json:"entry"`
		ExceptionDetails struct {
			Text      string `json:"text"`
			Exception struct {
				Description string `json:"description"`
			} `json:"exception"`
		} `json:"exceptionDetails"`
	}
	_ = json.Unmarshal(m.Params, &p)
	switch m.Method {
	case "Page.loadEventFired":
		b.loaded = true
	case "Runtime.consoleAPICalled":
		if p.Type == "error" || p.Type == "assert" {
			b.Errors = append(b.Errors, fmt.Sprintf("console.%s: %v", p.Type, p.Args))
		}
	case "Runtime.exceptionThrown":
		b.Errors = append(b.Errors, "exception: "+p.ExceptionDetails.Text+" "+p.ExceptionDetails.Exception.Description)
	case "Log.entryAdded":
		if p.Entry.Level == "error" {
			b.Errors = append(b.Errors, strings.TrimSpace("log: "+p.Entry.Text+" "+p.Entry.URL))
		}
	}
}

// Open navigates to url and waits for its load event.
func (b *Browser) Open(url string) error {
	b.loaded = false
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	if err := b.call("Page.navigate", map[string]any{"url": url}, &nav); err != nil {
		return err
	}
	if nav.ErrorText != "" {
		return fmt.Errorf("chromium: %s: %s", url, nav.ErrorText)
	}
	if b.loaded {
		return nil
	}
	_, err := b.wait("the load of "+url, func(m message) bool { return m.Method == "Page.loadEventFired" })
	return err
}

// Eval runs a JavaScript expression in the page and decodes its value
// into out.
func (b *Browser) Eval(expr string, out any) error {
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	if err := b.call("Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res); err != nil {
		return err
	}
	if res.ExceptionDetails != nil {
		return fmt.Errorf("chromium: evaluating an expression: %s", res.ExceptionDetails.Text)
	}
	if err := json.Unmarshal(res.Result.Value, out); err != nil {
		return fmt.Errorf("chromium: the expression's value %s: %w", res.Result.Value, err)
	}
	return nil
}

// Screenshot captures the whole page, beyond the viewport, as a PNG.
func (b *Browser) Screenshot() ([]byte, error) {
	var m struct {
		CSSContentSize struct{ Width, Height float64 } `json:"cssContentSize"`
	}
	if err := b.call("Page.getLayoutMetrics", nil, &m); err != nil {
		return nil, err
	}
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON: decoded by encoding/json
	}
	err := b.call("Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": m.CSSContentSize.Width, "height": m.CSSContentSize.Height, "scale": 1}}, &shot)
	return shot.Data, err
}

// PageCheck is what Check saw of a page.
type PageCheck struct {
	Figures []Figure
	Errors  []string // console errors, exceptions, resources that failed
}

// Check opens url in a fresh headless Chromium (exe, its profile under
// dir), collects the page's figures and errors, and writes a screenshot
// of the whole page to shot.
func Check(exe, dir, url, shot string) (*PageCheck, error) {
	b, err := Start(exe, dir)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	if err := b.Open(url); err != nil {
		return nil, err
	}
	figs, err := b.Figures()
	if err != nil {
		return nil, err
	}
	png, err := b.Screenshot()
	if err != nil {
		return nil, err
	}
	if err := os.WriteFile(shot, png, 0o640); err != nil {
		return nil, err
	}
	return &PageCheck{Figures: figs, Errors: b.Errors}, nil
}

// Viewport sizes the page's window to width x height CSS pixels at a
// device scale of 1, as a desktop browser's first screen.
func (b *Browser) Viewport(width, height int) error {
	return b.call("Emulation.setDeviceMetricsOverride", map[string]any{"width": width, "height": height,
		"deviceScaleFactor": 1, "mobile": false}, nil)
}
