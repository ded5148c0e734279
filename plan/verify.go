package plan

// Why a workload's GETs are verified, or not (Workload.VerifyWhy and
// VerifyIn): the workload's own verify, its erasure-coded policy, a cell
// with a fault block, or the default.
const (
	VerifyGivenOn  = "verify = true"
	VerifyGivenOff = "verify = false"
	VerifyEC       = "erasure-coded policy"
	VerifyFault    = "fault cell"
	VerifyDefault  = "default"
)

// VerifyIn says whether the workload's GETs are verified in variant v's
// cells, and why: its verify attribute when given; else on for an
// erasure-coded policy and in a cell whose variant has a fault block;
// else off. A command workload is never verified (benchbed reads no
// body). A fault's own errors keep their causes in a verified cell
// (http_503, http_507, transport_timeout...): only a successful GET whose
// body differs is corrupt.
func (w *Workload) VerifyIn(v *Variant) (bool, string) {
	switch {
	case w.IsCommand():
		return false, "command workload"
	case w.VerifyWhy == VerifyGivenOn || w.VerifyWhy == VerifyGivenOff || w.VerifyWhy == VerifyEC:
		return w.Verify, w.VerifyWhy
	case v.HasFaults():
		return true, VerifyFault
	}
	return false, VerifyDefault
}

// VerifyText is VerifyIn as benchbed plan prints it: "verify: on
// (erasure-coded policy)".
func (w *Workload) VerifyText(v *Variant) string {
	on, why := w.VerifyIn(v)
	if on {
		return "verify: on (" + why + ")"
	}
	return "verify: off (" + why + ")"
}
