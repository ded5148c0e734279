package load

import (
	"errors"
	"sync/atomic"

	"benchbed/plan/scenario"
	"benchbed/results"
)

// filling is a fill run's count of the objects in its containers. An agent
// knows only what it wrote: the fill when an operation starts is the
// creates this agent had acknowledged (2xx) by then, times the agents
// (each writes an equal share at the same pace), divided by the
// containers (ssbench's container of a created object is its number
// modulo container_count, so the containers fill evenly). Creates in
// flight are not counted; initial objects (prefill) are not either: a
// fill run starts from empty containers.
type filling struct {
	spec              results.FillSpec
	parts, containers int64
	acked             atomic.Int64
}

// newFilling returns the count of agent part of parts (0 or 1: alone).
func newFilling(spec results.FillSpec, s *scenario.Scenario, parts int) *filling {
	return &filling{spec: spec, parts: int64(max(parts, 1)), containers: int64(max(s.ContainerCount, 1))}
}

// objects is the approximate fill of a container now.
func (f *filling) objects() int64 { return f.acked.Load() * f.parts / f.containers }

// bucket is the fill bucket of an operation starting now.
func (f *filling) bucket() int { return f.spec.Bucket(f.objects()) }

// done counts a finished create.
func (f *filling) done(o Outcome) {
	if o.OK() {
		f.acked.Add(1)
	}
}

// errFillCreates refuses a fill run of a scenario that does anything but
// create: its operations would not all fill the containers.
var errFillCreates = errors.New("load: a fill run needs a create-only scenario (crud_profile [1, 0, 0, 0] in every size class)")

// resolveFill checks a fill run's spec and scenario, and bounds the run by
// the fill target: this agent's share of container_objects times
// container_count operations, unless an operation count is given. The
// scenario's run_seconds is not used (only an explicit duration bounds a
// fill run besides its target).
func (c *Config) resolveFill() error {
	if err := c.Fill.Validate(); err != nil {
		return err
	}
	if !scenario.CreateOnly(c.Scenario) {
		return errFillCreates
	}
	if c.Operations == 0 {
		parts := int64(max(c.Parts, 1))
		total := c.Fill.Objects * int64(c.Scenario.ContainerCount)
		c.Operations = total / parts
		if int64(c.Part) < total%parts {
			c.Operations++
		}
		c.Operations = max(c.Operations, 1)
	}
	return nil
}
