package chromium

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"time"
)

// Names are the names Chromium's executable goes by; Debian's package
// installs chromium.
var Names = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable"}

// Find returns the path of Chromium's executable, "" when none of Names
// is on PATH.
func Find() string {
	for _, name := range Names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// Timeout bounds every wait on the browser.
const Timeout = 60 * time.Second

// Browser is a headless Chromium with one page open.
type Browser struct {
	cmd     *exec.Cmd
	in      io.WriteCloser
	msgs    chan message
	next    int
	session string
	stderr  *os.File
	// Errors are the page's console errors, uncaught exceptions and the
	// errors the browser logged (a resource that failed to load).
	Errors []string
	loaded bool
}

// message is one protocol message: a response (ID) or an event (Method).
type message struct {
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

// Start starts exe headless, its profile and stderr log under dir (which
// it must own), and opens a blank page. Close ends it.
func Start(exe, dir string) (*Browser, error) {
	toBrowser, fromTest, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	fromBrowser, toTest, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	stderr, err := os.Create(filepath.Join(dir, "chromium-stderr.log"))
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(exe, "--headless", "--remote-debugging-pipe", "--no-sandbox", "--disable-gpu",
		"--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-dev-shm-usage",
		"--hide-scrollbars", "--user-data-dir="+filepath.Join(dir, "profile"), "about:blank")
	cmd.ExtraFiles = []*os.File{toBrowser, toTest} // fd 3: commands in, fd 4: messages out
	cmd.Stdout, cmd.Stderr = stderr, stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("%s: %w", exe, err)
	}
	toBrowser.Close()
	toTest.Close()
	b := &Browser{cmd: cmd, in: fromTest, msgs: make(chan message, 64), stderr: stderr}
	go b.read(fromBrowser)
	if err := b.attach(); err != nil {
		b.Close()
		return nil, err
	}
	return b, nil
}

// attach opens a page, attaches to it and enables the domains whose
// events say what went wrong.
func (b *Browser) attach() error {
	var target struct {
		TargetID string `json:"targetId"`
	}
	if err := b.call("Target.createTarget", map[string]any{"url": "about:blank"}, &target); err != nil {
		return err
	}
	var att struct {
		SessionID string `json:"sessionId"`
	}
	if err := b.call("Target.attachToTarget", map[string]any{"targetId": target.TargetID, "flatten": true}, &att); err != nil {
		return err
	}
	b.session = att.SessionID
	for _, domain := range []string{"Page", "Runtime", "Log"} {
		if err := b.call(domain+".enable", nil, nil); err != nil {
			return err
		}
	}
	return nil
}

// read passes the browser's messages to b.msgs until its pipe closes.
func (b *Browser) read(r io.Reader) {
	defer close(b.msgs)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes(0)
		if err != nil {
			return
		}
		var m message
		if json.Unmarshal(line[:len(line)-1], &m) == nil {
			b.msgs <- m
		}
	}
}

// Close ends the browser: Browser.close, then a kill if it lingers.
func (b *Browser) Close() {
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

// call sends method to the page's session (to the browser before a page
// is attached) and decodes its result into out, noting the events that
// arrive meanwhile.
func (b *Browser) call(method string, params, out any) error {
	b.next++
	id := b.next
	if params == nil {
		params = struct{}{}
	}
	req := map[string]any{"id": id, "method": method, "params": params}
	if b.session != "" {
		req["sessionId"] = b.session
	}
	msg, err := json.Marshal(req)
	if err != nil {
		return err
	}
	if _, err := b.in.Write(append(msg, 0)); err != nil {
		return fmt.Errorf("chromium: %s: %w (its stderr: %s)", method, err, b.stderr.Name())
	}
	m, err := b.wait(method, func(m message) bool { return m.ID == id })
	if err != nil {
		return err
	}
	if m.Error != nil {
		return fmt.Errorf("chromium: %s: %s (code %d)", method, m.Error.Message, m.Error.Code)
	}
	if out != nil {
		if err := json.Unmarshal(m.Result, out); err != nil {
			return fmt.Errorf("chromium: %s: %w in %s", method, err, m.Result)
		}
	}
	return nil
}

// wait reads messages until done accepts one, noting every event.
func (b *Browser) wait(what string, done func(message) bool) (message, error) {
	deadline := time.After(Timeout)
	for {
		select {
		case m, ok := <-b.msgs:
			if !ok {
				return m, fmt.Errorf("chromium exited while waiting for %s (its stderr: %s)", what, b.stderr.Name())
			}
			b.note(m)
			if done(m) {
				return m, nil
			}
		case <-deadline:
			return message{}, errors.New("chromium: no answer to " + what + " in " + Timeout.String())
		}
	}
}
