// Package proxylog reads Swift's proxy access logs (proxy_logging's
// lines): the default log_msg_template or a stated one, behind a syslog
// prefix or not, plain or gzip, many files merged by time. Each line is one
// Record; a line that does not parse is counted with its first example,
// never fatal. It touches no host and imports only the standard library.
//
// Facts from Swift 2.30.1's proxy_logging: every value is URL-quoted
// (quote(value, ':/{}')), so a value holds no space; an empty or zero value
// is "-"; start_time and end_time are Unix seconds with 9 decimals,
// end_time.datetime is %d/%b/%Y/%H/%M/%S (UTC), request_time has 4
// decimals; path is the request's path and query; source is swift.source,
// set on middleware subrequests (SLO, DLO, bulk, S3...), so that a client
// request is one without it.
package proxylog
