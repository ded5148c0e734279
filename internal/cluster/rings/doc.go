// Package rings keeps a testbed's rings on its builder host: the builders
// read (DumpRings) and brought to the ring layout (BuildRings, every
// swift-ring-builder command of every ring in one Python process), the
// ring ports switched in place for a variant (SwitchRingPorts), and the
// ring files pushed to every service host (DistributeRings). setup, the
// sweep's cells and the restore use it.
package rings
