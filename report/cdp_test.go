package report

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// browser is a headless Chromium driven through its DevTools protocol
// over --remote-debugging-pipe: JSON messages ended by a NUL byte, sent
// on the browser's fd 3 and read from its fd 4. No websocket, no
// dependency beyond the browser itself.
type browser struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	msgs    chan cdpMsg
	next    int
	session string
	stderr  *os.File
	// Errors are the page's console errors, uncaught exceptions and
	// errors logged by the browser (a resource that failed to load).
	Errors []string
	loaded bool
}

// cdpMsg is one protocol message: a response (ID) or an event (Method).
type cdpMsg struct {
	ID        int             `json:"id,omitempty"`
	Method    string          `json:"method,omitempty"`
	Params    json.RawMessage `json:"params,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	SessionID string          `json:"sessionId,omitempty"`
	Error     *struct {
		Code    int    `json:"code"`
		Message string `json:"message"`
	} `json:"error,omitempty"`
}

// cdpTimeout bounds every wait on the browser.
const cdpTimeout = 60 * time.Second

// startBrowser starts exe headless with a throw-away profile under dir
// and opens one page.
func startBrowser(t *testing.T, exe, dir string) *browser {
	t.Helper()
	toBrowser, fromTest, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	fromBrowser, toTest, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.Create(filepath.Join(dir, "chromium-stderr.log"))
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"), "about:blank")
	cmd.ExtraFiles = []*os.File{toBrowser, toTest} // fd 3: commands in, fd 4: messages out
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", exe, err)
	}
	toBrowser.Close()
	toTest.Close()
	b := &browser{cmd: cmd, in: fromTest, msgs: make(chan cdpMsg, 64), stderr: stderr}
	t.Cleanup(b.close)
	go b.read(fromBrowser)
	var target struct {
		TargetID string `json:"targetId"`
	}
	b.call(t, "Target.createTarget", map[string]any{"url": "about:blank"}, &target)
	var att struct {
		SessionID string `json:"sessionId"`
	}
	b.call(t, "Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att)
	b.session = att.SessionID
	for _, domain := range []string{"Page", "Runtime", "Log"} {
		b.call(t, domain+".enable", nil, nil)
	}
	return b
}

// read passes the browser's messages to b.msgs until its pipe closes.
func (b *browser) read(r io.Reader) {
	defer close(b.msgs)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m cdpMsg
		if json.Unmarshal(line[:len(line)-1], &m) == nil {
			b.msgs <- m
		}
	}
}

// close ends the browser: Browser.close, then a kill if it lingers.
func (b *browser) close() {
	if b.cmd.ProcessState == nil {
		b.next++
		msg, _ := json.Marshal(map[string]any{"id": b.next, "method": "Browser.close"})
		_, _ = b.in.Write(append(msg, 0))
		done := make(chan struct{})
		go func() { _ = b.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = b.cmd.Process.Kill()
			<-done
		}
	}
	b.in.Close()
	b.stderr.Close()
}

// call sends method to the page's session (or to the browser before the
// page is attached) and decodes its result into out, noting the events
// that arrive meanwhile.
func (b *browser) call(t *testing.T, method string, params, out any) {
	t.Helper()
	b.next++
	id := b.next
	req := map[string]any{"id": id, "method": method, "params": orEmpty(params)}
	if b.session != "" {
		req["sessionId"] = b.session
	}
	msg, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.in.Write(append(msg, 0)); err != nil {
		t.Fatalf("chromium: %s: %v (its stderr: %s)", method, err, b.stderr.Name())
	}
	m := b.wait(t, method, func(m cdpMsg) bool { return m.ID == id })
	if m.Error != nil {
		t.Fatalf("chromium: %s: %s (code %d)", method, m.Error.Message, m.Error.Code)
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			t.Fatalf("chromium: %s: %v in %s", method, err, m.Result)
		}
	}
}

func orEmpty(p any) any {
	if p == nil {
		return struct{}{}
	}
	return p
}

// wait reads messages until done accepts one, noting every event.
func (b *browser) wait(t *testing.T, what string, done func(cdpMsg) bool) cdpMsg {
	t.Helper()
	deadline := time.After(cdpTimeout)
	for {
		select {
		case m, ok := <-b.msgs:
			if !ok {
				t.Fatalf("chromium exited while waiting for %s (its stderr: %s)", what, b.stderr.Name())
			}
			b.note(m)
			if done(m) {
				return m
			}
		case <-deadline:
			t.Fatalf("chromium: no answer to %s in %v", what, cdpTimeout)
		}
	}
}

// note records the page's errors and its load event.
func (b *browser) note(m cdpMsg) {
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

// open navigates to url and waits for its load event.
func (b *browser) open(t *testing.T, url string) {
	t.Helper()
	b.loaded = false
	var nav struct {
		ErrorText string `json:"errorText"`
	}
	b.call(t, "Page.navigate", map[string]any{"url": url}, &nav)
	if nav.ErrorText != "" {
		t.Fatalf("chromium: %s: %s", url, nav.ErrorText)
	}
	if !b.loaded {
		b.wait(t, "the load of "+url, func(m cdpMsg) bool { return m.Method == "Page.loadEventFired" })
	}
}

// eval runs a JavaScript expression in the page and decodes its value.
func (b *browser) eval(t *testing.T, expr string, out any) {
	t.Helper()
	var res struct {
		Result struct {
			Value json.RawMessage `json:"value"`
		} `json:"result"`
		ExceptionDetails *struct {
			Text string `json:"text"`
		} `json:"exceptionDetails"`
	}
	b.call(t, "Runtime.evaluate", map[string]any{"expression": expr, "returnByValue": true}, &res)
	if res.ExceptionDetails != nil {
		t.Fatalf("chromium: evaluating the page check: %s", res.ExceptionDetails.Text)
	}
	if err := json.Unmarshal(res.Result.Value, out); err != nil {
		t.Fatalf("chromium: page check's value %s: %v", res.Result.Value, err)
	}
}

// screenshot captures the whole page (beyond the viewport) as a PNG.
func (b *browser) screenshot(t *testing.T) []byte {
	t.Helper()
	var m struct {
		CSSContentSize struct{ Width, Height float64 } `json:"cssContentSize"`
	}
	b.call(t, "Page.getLayoutMetrics", nil, &m)
	var shot struct {
		Data []byte `json:"data"` // base64 in JSON: decoded by encoding/json
	}
	b.call(t, "Page.captureScreenshot", map[string]any{"format": "png", "captureBeyondViewport": true,
		"clip": map[string]any{"x": 0, "y": 0, "width": m.CSSContentSize.Width, "height": m.CSSContentSize.Height, "scale": 1}}, &shot)
	return shot.Data
}
