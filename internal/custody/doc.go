// Package custody keeps a lab's hosts in custody for a sweep and gives
// them back: the sweep lock on every host (Locks), the backup of every
// file a sweep may change and its restore (TakeBackup, RestoreLab), and
// Restore, which is `benchbed restore` for a run left unrestored (files,
// generic services, faults left applied, then the locks).
package custody
