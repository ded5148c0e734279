package plan

import (
	"strconv"
	"strings"

	"github.com/hashicorp/hcl/v2"
)

// Storage policy types, as swift.conf's policy_type names them.
const (
	PolicyReplication   = "replication"
	PolicyErasureCoding = "erasure_coding"
)

// DefaultECSegmentSize is Swift's ec_object_segment_size when unset (1 MiB).
const DefaultECSegmentSize = 1 << 20

// ECTypes are the ec_type values PyECLib 1.6 knows (ALL_EC_TYPES); which of
// them load on a host depends on the libraries installed there (the
// preflight probe tries it).
var ECTypes = []string{"liberasurecode_rs_vand", "isa_l_rs_vand", "isa_l_rs_cauchy",
	"jerasure_rs_vand", "jerasure_rs_cauchy", "flat_xor_hd_3", "flat_xor_hd_4", "shss", "libphazr"}

// Policy is one storage policy: a policy block, or one derived from an
// object ring when the testbed declares no policy block.
type Policy struct {
	Name       string
	Index      int
	Type       string   // PolicyReplication or PolicyErasureCoding
	Aliases    []string // further names, in order
	Default    bool
	Deprecated bool
	// Erasure coding only.
	ECType        string
	ECData        int   // ec_num_data_fragments
	ECParity      int   // ec_num_parity_fragments
	ECSegmentSize int64 // ec_object_segment_size, 0 = Swift's default (1 MiB)
	ECDuplication int   // ec_duplication_factor, 0 = 1
	Declared      bool  // from a policy block (false: derived from a ring)
	DefRange      hcl.Range
}

// IsEC reports whether p is an erasure-coded policy.
func (p *Policy) IsEC() bool { return p.Type == PolicyErasureCoding }

// RingName is the name of the policy's object ring: object for index 0,
// object-N otherwise.
func (p *Policy) RingName() string { return PolicyRingName(p.Index) }

// PolicyRingName is the object ring of policy index i.
func PolicyRingName(i int) string {
	if i == 0 {
		return "object"
	}
	return "object-" + strconv.Itoa(i)
}

// Duplication is the policy's ec_duplication_factor (1 when unset).
func (p *Policy) Duplication() int { return max(p.ECDuplication, 1) }

// SegmentSize is the policy's ec_object_segment_size (Swift's default when unset).
func (p *Policy) SegmentSize() int64 {
	if p.ECSegmentSize > 0 {
		return p.ECSegmentSize
	}
	return DefaultECSegmentSize
}

// ECReplicas is the replica count Swift requires of an EC policy's ring:
// (data + parity) x duplication. It is 0 for a replicated policy.
func (p *Policy) ECReplicas() int {
	if !p.IsEC() {
		return 0
	}
	return (p.ECData + p.ECParity) * p.Duplication()
}

// Names are the policy's name and aliases.
func (p *Policy) Names() []string { return append([]string{p.Name}, p.Aliases...) }

// HasName reports whether name (case-insensitive, as Swift compares them)
// is the policy's name or one of its aliases.
func (p *Policy) HasName(name string) bool {
	for _, n := range p.Names() {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// StoragePolicies are the testbed's storage policies in index order: its
// policy blocks, or, without any, Policy-0 (the default) and a replicated
// Policy-N for every object-N ring, as benchbed has always rendered them.
func (tb *Testbed) StoragePolicies() []*Policy {
	if len(tb.Policies) > 0 {
		return tb.Policies
	}
	out := []*Policy{{Name: "Policy-0", Type: PolicyReplication, Default: true, DefRange: tb.DefRange}}
	for _, r := range tb.Rings {
		n, ok := strings.CutPrefix(r.Name, "object-")
		if !ok {
			continue
		}
		i, err := strconv.Atoi(n)
		if err != nil {
			continue
		}
		out = append(out, &Policy{Name: "Policy-" + n, Index: i, Type: PolicyReplication, DefRange: r.DefRange})
	}
	return out
}

// Policy returns the storage policy that name (a name or alias) or, for
// "", the default one names, or nil.
func (tb *Testbed) Policy(name string) *Policy {
	for _, p := range tb.StoragePolicies() {
		if (name == "" && p.Default) || (name != "" && p.HasName(name)) {
			return p
		}
	}
	return nil
}

// PolicyByIndex returns the storage policy with index i, or nil.
func (tb *Testbed) PolicyByIndex(i int) *Policy {
	for _, p := range tb.StoragePolicies() {
		if p.Index == i {
			return p
		}
	}
	return nil
}

// HasEC reports whether any of the testbed's policies is erasure-coded.
func (tb *Testbed) HasEC() bool {
	for _, p := range tb.StoragePolicies() {
		if p.IsEC() {
			return true
		}
	}
	return false
}
