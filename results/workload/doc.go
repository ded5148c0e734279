// Package workload fits a workload to Swift's proxy access logs
// (plan/proxylog's records): the operation mix and its shape over time,
// object sizes per operation, popularity skew, the request rate, PUT-to-GET
// and PUT-to-DELETE lifetimes and status classes, and writes it as a
// scenario benchbed runs. It streams: histograms for quantiles, a
// space-saving sketch for the popular objects, a HyperLogLog for distinct
// ones and a bounded map for lifetimes, so that memory does not grow with
// the number of lines. Account names and auth tokens are never kept in a
// fit; object names are hashed unless asked for in clear.
package workload
