// Package e2e holds benchbed's end-to-end tests against the local lab
// (testbeds/lab: hosts in network namespaces with their own sshd and real
// Swift from Debian's packages), and the helper other packages' tests use to
// get that lab:
//
//	func TestMain(m *testing.M) { os.Exit(e2e.Main(m)) }
//
//	func TestSomething(t *testing.T) {
//		lab := e2e.Lab(t) // skips loudly without root or the packages
//		out := lab.Benchbed(t, "setup", lab.Testbed)
//		...
//	}
//
// The lab is brought up once per test binary (after taking down whatever
// lab was there) and shared by its tests, each setting up its own testbed
// over what the one before left; Main takes it down at the end, checks
// that nothing of it is left and writes every test's time. A lock
// serialises test binaries that use it, since there is one lab per machine.
package e2e
