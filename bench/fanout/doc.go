// Command fanout is benchbed's side of the bench/fanout benchmark (run it
// through bench/fanout/run, which starts the sshd hosts and Ansible too).
//
// On every host at once it renders the confs of a template directory (the
// same Jinja-style "{{ var }}" files the Ansible playbook uses; files
// without .j2 are copied), uploads them with remote's atomic upload, then
// runs a restart-like command: stop the fake daemon of the pid file, start a
// new detached one, check it runs.
//
//	fanout -hosts FILE -templates DIR -key KEY -known-hosts FILE -gen N
//	fanout -print-restart DIR    (the command text, for the playbook)
//
// FILE has one host per line: "name address port dir"; confs go to
// dir/etc/swift. It prints one line: hosts, seconds, and exits 1 when a
// host failed.
package main
