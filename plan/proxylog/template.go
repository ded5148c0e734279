package proxylog

import (
	"fmt"
	"strings"
)

// DefaultTemplate is proxy_logging's default log_msg_template (Swift 2.30.1).
const DefaultTemplate = "{client_ip} {remote_addr} {end_time.datetime} {method} " +
	"{path} {protocol} {status_int} {referer} {user_agent} " +
	"{auth_token} {bytes_recvd} {bytes_sent} {client_etag} " +
	"{transaction_id} {headers} {request_time} {source} " +
	"{log_info} {start_time} {end_time} {policy_index}"

// fieldNames are the names a log_msg_template may use (proxy_logging's
// replacements); those this package reads are fields, the rest skipped.
var fieldNames = map[string]bool{
	"client_ip": true, "remote_addr": true, "end_time": true, "start_time": true,
	"method": true, "path": true, "protocol": true, "status_int": true,
	"referer": true, "user_agent": true, "auth_token": true, "bytes_recvd": true,
	"bytes_sent": true, "client_etag": true, "transaction_id": true, "headers": true,
	"request_time": true, "source": true, "log_info": true, "policy_index": true,
	"ttfb": true, "pid": true, "domain": true, "account": true, "container": true,
	"object": true, "wire_status_int": true,
}

// field is one {name.attr} of a template and the literal after it.
type field struct {
	name, attr string // "end_time", "datetime"
	key        string // "end_time.datetime"
	after      string // the literal up to the next field (or the end)
	skip       bool   // a field the records do not use
}

// Template is a compiled log_msg_template.
type Template struct {
	text   string
	before string // the literal before the first field
	fields []field
	has    map[string]bool // "name" and "name.attr" present
}

// Compile reads a log_msg_template. It refuses an unknown field, two fields
// with nothing between them (their values could not be told apart), and a
// template without method and a path (or container and object) and a time
// (start_time, end_time or end_time.datetime).
func Compile(text string) (*Template, error) {
	t := &Template{text: text, has: map[string]bool{}}
	rest := text
	var cur *field
	for rest != "" {
		open := strings.IndexByte(rest, '{')
		if open < 0 {
			t.addLiteral(cur, rest)
			break
		}
		t.addLiteral(cur, rest[:open])
		end := strings.IndexByte(rest[open:], '}')
		if end < 0 {
			return nil, fmt.Errorf("log_msg_template %q: a '{' without its '}'", text)
		}
		f, err := parseField(rest[open+1 : open+end])
		if err != nil {
			return nil, fmt.Errorf("log_msg_template %q: %w", text, err)
		}
		if cur != nil && cur.after == "" {
			return nil, fmt.Errorf("log_msg_template %q: {%s} follows {%s} with nothing between: their values cannot be told apart", text, f.name, cur.name)
		}
		f.key = f.fullKey()
		t.fields = append(t.fields, f)
		cur = &t.fields[len(t.fields)-1]
		t.has[f.name], t.has[f.key] = true, true
		rest = rest[open+end+1:]
	}
	t.markSkipped()
	return t, t.check()
}

// used are the fields a Record takes; an end time only without a start.
var used = map[string]bool{"method": true, "path": true, "account": true, "account.anonymized": true,
	"container": true, "container.anonymized": true, "object": true, "object.anonymized": true,
	"status_int": true, "bytes_recvd": true, "bytes_sent": true, "request_time": true, "ttfb": true,
	"source": true, "start_time": true, "end_time": true, "end_time.datetime": true, "end_time.iso8601": true}

// markSkipped marks the fields Parse need not read: those a Record does
// not take, and the end times when the start time is there.
func (t *Template) markSkipped() {
	for i := range t.fields {
		f := &t.fields[i]
		f.skip = !used[f.key] || (f.name == "end_time" && t.has["start_time"])
	}
}

// addLiteral appends lit after cur (before the first field when nil).
func (t *Template) addLiteral(cur *field, lit string) {
	if cur == nil {
		t.before += lit
		return
	}
	cur.after += lit
}

// parseField reads "name", "name.attr" or "name:spec" (the spec ignored).
func parseField(s string) (field, error) {
	s, _, _ = strings.Cut(s, ":")
	name, attr, _ := strings.Cut(s, ".")
	if !fieldNames[name] {
		return field{}, fmt.Errorf("unknown field {%s} (proxy_logging knows client_ip, method, path, status_int, start_time, ...)", s)
	}
	return field{name: name, attr: attr}, nil
}

// fullKey is "name" or "name.attr".
func (f field) fullKey() string {
	if f.attr == "" {
		return f.name
	}
	return f.name + "." + f.attr
}

// check refuses a template the fit cannot use.
func (t *Template) check() error {
	switch {
	case !t.has["method"]:
		return fmt.Errorf("log_msg_template %q has no {method}", t.text)
	case !t.has["path"] && !t.has["container"]:
		return fmt.Errorf("log_msg_template %q has neither {path} nor {container}", t.text)
	case !t.has["start_time"] && !t.has["end_time"] && !t.has["end_time.datetime"] && !t.has["end_time.iso8601"]:
		return fmt.Errorf("log_msg_template %q has no time: {start_time}, {end_time}, {end_time.datetime} or {end_time.iso8601}", t.text)
	}
	return nil
}

// String is the template's text.
func (t *Template) String() string { return t.text }
