// Package restore keeps a lab's hosts in custody for a sweep: the sweep
// lock on every host, the backup of every file a sweep may change and its
// restore, and Run, which is `benchbed restore` for a run left unrestored
// (files, generic services, faults left applied, then the locks).
package restore
