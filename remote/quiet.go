package remote

import "context"

// quietKey marks a context whose commands are not streamed live.
type quietKey struct{}

// Quiet returns ctx for commands whose output is data, not progress (a
// file's content, a ring's dump, an id): Run captures it in the Result as
// always, but the pool's Output option does not stream it.
func Quiet(ctx context.Context) context.Context {
	return context.WithValue(ctx, quietKey{}, true)
}

func isQuiet(ctx context.Context) bool {
	q, _ := ctx.Value(quietKey{}).(bool)
	return q
}
