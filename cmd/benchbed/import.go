package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"benchbed/internal/importer"
	"benchbed/remote"

	"github.com/spf13/cobra"
)

func init() { register(newImportCmd) }

// importFlags are benchbed import's flags: where the testbed goes and the
// ssh block's options.
type importFlags struct {
	out        string
	sshConfig  string
	identities []string
	knownHosts []string
	user       string
	acceptNew  bool
}

func newImportCmd() *cobra.Command {
	f := &importFlags{}
	cmd := &cobra.Command{
		Use:   "import [flags] HOST...",
		Short: "Read a running cluster (read only) and write a testbed that describes it",
		Long: "Reads, and only reads, each HOST (and every host the rings name): confs, rings, Swift's\n" +
			"processes, mounts. Writes a testbed of its hosts, disks, rings, policies and services (the\n" +
			"settings that differ from the built-in templates), secrets as sensitive variables, a\n" +
			"baseline variant and a starting workload. What it cannot describe, and hosts that disagree,\n" +
			"go to stderr.\n" +
			"Exit status: 0 described, 1 described with errors (hosts disagree, or the language cannot say\n" +
			"it), 2 a host unreachable or a usage error.",
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return f.run(cmd, args)
		},
	}
	fl := cmd.Flags()
	fl.StringVarP(&f.out, "out", "o", "", "write the testbed to FILE (default: stdout)")
	fl.StringVar(&f.sshConfig, "ssh-config", "", "ssh_config file (default ~/.ssh/config), as the ssh block's config")
	fl.StringArrayVar(&f.identities, "identity", nil, "private key to offer (repeatable), as the ssh block's identity_files")
	fl.StringArrayVar(&f.knownHosts, "known-hosts", nil, "known_hosts file (repeatable), as the ssh block's known_hosts")
	fl.StringVar(&f.user, "user", "", "login user, as the ssh block's user")
	fl.BoolVar(&f.acceptNew, "accept-new-host-keys", false, "record the host keys of hosts not yet in known_hosts; a changed key is still refused")
	return cmd
}

// run reads the hosts, builds the testbed, writes it and prints the
// diagnostics once.
func (f *importFlags) run(cmd *cobra.Command, args []string) error {
	errOut := cmd.ErrOrStderr()
	ssh, err := f.sshBlock()
	if err != nil {
		return usagef(cmd, "%v", err)
	}
	fmt.Fprintln(errOut, "benchbed import: read only: reads confs, rings, processes and mounts on the hosts; writes nothing there")
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	cfgText, _ := os.ReadFile(f.configPath())
	names := make([]string, len(args))
	for i, a := range args {
		names[i] = a
		if net.ParseIP(a) != nil {
			names[i] = importer.HostName(a, cfgText)
		}
	}
	facts, err := f.probe(ctx, errOut, names, args)
	if err == nil {
		var more []*importer.Facts
		found := importer.DiscoverAddrs(facts)
		if len(found) > 0 {
			fmt.Fprintf(errOut, "benchbed import: the rings name %s too: reading %s\n", plural(len(found), "host"), strings.Join(found, ", "))
			more, err = f.probe(ctx, errOut, hostNames(found, cfgText), found)
			facts = append(facts, more...)
		}
	}
	if err != nil {
		if ctx.Err() != nil {
			return exitCode(exitInterrupted)
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			fmt.Fprintln(errOut, "benchbed import:", line)
		}
		return exitCode(exitCannot)
	}
	ports := map[string]int{}
	for _, fc := range facts {
		if p := importer.SSHPort(fc.Host, cfgText); p != 0 {
			ports[fc.Host] = p
		}
	}
	res := importer.Build(facts, importer.Options{SSH: ssh, Path: f.out, Ports: ports})
	if err := f.write(cmd.OutOrStdout(), res.Text); err != nil {
		fmt.Fprintln(errOut, "benchbed import:", err)
		return exitCode(exitCannot)
	}
	_ = res.Diags.Write(errOut, "benchbed import: ")
	summarize(errOut, res, len(facts))
	if res.Diags.HasErrors() {
		return exitCode(exitNo)
	}
	return nil
}

// sshBlock is the ssh block of the flags, paths made absolute.
func (f *importFlags) sshBlock() (importer.SSH, error) {
	s := importer.SSH{User: f.user}
	var err error
	abs := func(p string) string {
		a, e := filepath.Abs(p)
		if e != nil && err == nil {
			err = e
		}
		return a
	}
	if f.sshConfig != "" {
		s.Config = abs(f.sshConfig)
	}
	for _, p := range f.identities {
		s.Identities = append(s.Identities, abs(p))
	}
	for _, p := range f.knownHosts {
		s.KnownHosts = append(s.KnownHosts, abs(p))
	}
	return s, err
}

// configPath is the ssh_config the hosts are reached through.
func (f *importFlags) configPath() string {
	if f.sshConfig != "" {
		return f.sshConfig
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".ssh", "config")
}

// probe reads the hosts at addrs, named names, in one pool, and says on
// errOut when it reads a host again because a server whose conf it has
// does not run there (importer.DefaultSettle).
func (f *importFlags) probe(ctx context.Context, errOut io.Writer, names, addrs []string) ([]*importer.Facts, error) {
	var cfgs []remote.Config
	for i, n := range names {
		cfgs = append(cfgs, remote.Config{Name: n, Address: addrs[i], User: f.user, IdentityFiles: f.identities,
			KnownHosts: f.knownHosts, SSHConfigFile: f.sshConfig, AcceptNewHostKeys: f.acceptNew})
	}
	p, err := remote.NewPool(cfgs)
	if err != nil {
		return nil, err
	}
	defer p.Close()
	var mu sync.Mutex
	s := importer.DefaultSettle
	s.OnWait = func(host string, missing []string, next, reads int) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(errOut, "benchbed import: %s: %s not running though configured (stopped or restarting?): reading %s again in %s (read %d of at most %d)\n",
			host, strings.Join(missing, ", "), host, s.Wait, next, reads)
	}
	return importer.ProbeSettle(ctx, p, names, s)
}

// hostNames names the hosts found at addrs (their ssh_config aliases).
func hostNames(addrs []string, cfgText []byte) []string {
	out := make([]string, len(addrs))
	for i, a := range addrs {
		out[i] = importer.HostName(a, cfgText)
	}
	return out
}

// write puts the testbed in --out (through a temporary file renamed into
// place) or on w.
func (f *importFlags) write(w io.Writer, text []byte) error {
	if f.out == "" {
		_, err := w.Write(text)
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(f.out), ".import-*.hcl")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(text); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Chmod(tmp.Name(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), f.out)
}

// summarize prints what was read and how the baseline matched, and the
// variables the user must give (their names, never their values).
func summarize(w io.Writer, res *importer.Result, hosts int) {
	fmt.Fprintf(w, "benchbed import: %s read; the baseline renders %s, %d byte for byte as the hosts have them",
		plural(hosts, "host"), plural(res.Confs, "conf"), res.Identical)
	if res.Diags.HasErrors() {
		fmt.Fprintln(w, "; not all of the cluster is described (errors above)")
	} else {
		fmt.Fprintln(w, ", the others setting for setting")
	}
	for _, name := range res.VarNames() {
		fmt.Fprintf(w, "benchbed import: secret: give variable %s (--var, --var-file or BENCHBED_VAR_%s)\n", name, name)
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return fmt.Sprintf("%d %ss", n, what)
}
