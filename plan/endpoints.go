package plan

// EndpointURLs are the URLs the workload's agents spread over: its
// endpoints, else its auth URL or storage URL alone.
func (w *Workload) EndpointURLs() []string {
	switch {
	case len(w.Endpoints) > 0:
		return w.Endpoints
	case w.Auth != nil:
		return []string{w.Auth.URL}
	case w.StorageURL != "":
		return []string{w.StorageURL}
	}
	return nil
}

// AgentEndpoint is the endpoint of the workload's agent i (0-based, over
// all its agents in the order they are started): round robin over
// EndpointURLs, so that every proxy gets agents and their share differs by
// at most one.
func (w *Workload) AgentEndpoint(i int) string {
	urls := w.EndpointURLs()
	if len(urls) == 0 {
		return ""
	}
	return urls[i%len(urls)]
}

// AgentAuth is how agent i authenticates: the workload's auth with that
// agent's endpoint as its URL (nil without an auth block: then the
// endpoint is the agent's storage URL, with the workload's token).
func (w *Workload) AgentAuth(i int) *Auth {
	if w.Auth == nil {
		return nil
	}
	a := *w.Auth
	a.URL = w.AgentEndpoint(i)
	return &a
}
