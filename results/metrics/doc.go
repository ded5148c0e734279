// Package metrics streams what benchbed merges each interval to the
// systems operators already watch: Prometheus remote write 1.0, InfluxDB
// line protocol (1.x /write and v2 /api/v2/write) and an OpenMetrics
// /metrics endpoint. It never sends per request: an Aggregator turns the
// agents' interval events (results.AgentEvent) into per-interval points
// per cell, operation and endpoint (requests, errors by cause, first- and
// last-byte percentiles, the same figures so far in the phase), the
// hosts' telemetry and the sweep's own state (which cell, variant,
// workload, repeat and phase is running, and a probe's offered rate).
//
// Sending is asynchronous and bounded (Exporter): each output has a
// queue of a stated size, a batch that finds it full is dropped and
// counted, so a slow or dead receiver never slows the agents or the cell
// and never changes a result. Labels come from a fixed set (Label*) and
// an endpoint's URL is stripped of user info, query and fragment, so no
// key, password or token can become a label (docs/metrics.md).
package metrics
