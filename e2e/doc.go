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
// lab was there) and taken down by Main at the end. A lock serialises test
// binaries that use it, since there is one lab per machine.
package e2e
