package cluster

import "time"

// The health wait's polling: first soon after the restart (a server that
// is up in 200 ms is seen then, not at a coarse tick), then less often, so
// that a server that takes seconds is not flooded with requests.
const (
	pollFirst = 50 * time.Millisecond
	pollMax   = 500 * time.Millisecond
)

// backoff yields the waits between polls: pollFirst, growing by half
// each time, up to pollMax.
type backoff struct{ next time.Duration }

// wait returns the wait before the next poll.
func (b *backoff) wait() time.Duration {
	if b.next <= 0 {
		b.next = pollFirst
	}
	d := b.next
	b.next = min(b.next+b.next/2, pollMax)
	return d
}
