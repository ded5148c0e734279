package remote

import (
	"bufio"
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
)

func TestStartConverses(t *testing.T) {
	p, _ := newTestPool(t, 1)
	s, err := p.Start(context.Background(), "h0", "read -r x; echo \"got $x\"; cat >/dev/null; echo bye; echo oops >&2; exit 4")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.WriteString(s.Stdin, "job\n"); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(s.Stdout)
	line, err := br.ReadString('\n')
	if err != nil || line != "got job\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	s.Stdin.Close() // EOF: the command goes on to its end
	rest, _ := io.ReadAll(br)
	if string(rest) != "bye\n" {
		t.Fatalf("rest %q", rest)
	}
	var ee *ExitError
	if err := s.Wait(); !errors.As(err, &ee) || ee.Code != 4 || ee.StderrTail != "oops" || ee.Host != "h0" {
		t.Fatalf("wait = %v, want exit 4 with stderr tail", err)
	}
	if err := s.Wait(); !errors.As(err, &ee) {
		t.Fatalf("second wait = %v", err)
	}
}

func TestStartStopsOnCancel(t *testing.T) {
	p, _ := newTestPool(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := p.Start(ctx, "h0", "echo started; cat >/dev/null; echo stdin-closed")
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(s.Stdout)
	if l, _ := br.ReadString('\n'); l != "started\n" {
		t.Fatalf("got %q", l)
	}
	cancel()
	rest, _ := io.ReadAll(br)
	if !strings.Contains(string(rest), "stdin-closed") {
		t.Fatalf("after cancel the command should see EOF on stdin, got %q", rest)
	}
	done := make(chan error, 1)
	go func() { done <- s.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("wait = %v", err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the command did not end after cancel")
	}
	// The session slot was released: a Run still works.
	if _, err := p.Run(context.Background(), "h0", "true"); err != nil {
		t.Fatal(err)
	}
}

func TestStartKillsWhatIgnoresStdinAndTerm(t *testing.T) {
	p, _ := newTestPool(t, 1)
	ctx, cancel := context.WithCancel(context.Background())
	s, err := p.Start(ctx, "h0", "sh -c 'trap \"\" TERM; echo started; while :; do sleep 1; done'")
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(s.Stdout)
	if l, _ := br.ReadString('\n'); l != "started\n" {
		t.Fatalf("got %q", l)
	}
	cancel()
	done := make(chan error, 1)
	go func() { _, _ = io.ReadAll(br); done <- s.Wait() }()
	select {
	case err := <-done:
		var ee *ExitError
		if !errors.As(err, &ee) {
			t.Fatalf("wait = %v, want the command killed", err)
		}
	case <-time.After(60 * time.Second):
		t.Fatal("a command ignoring stdin's end and SIGTERM was not killed")
	}
}
