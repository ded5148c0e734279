package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"benchbed/remote"
)

var verbose bool

type host struct {
	name, addr, dir string
	port            int
}

func main() {
	hostsFile := flag.String("hosts", "", "hosts file: name address port dir per line")
	tmplDir := flag.String("templates", "", "directory of *.j2 templates and plain files")
	key := flag.String("key", "", "private key to log in as root")
	known := flag.String("known-hosts", "", "known_hosts file")
	gen := flag.Int("gen", 1, "generation number rendered into the confs (a new one changes every file)")
	flag.BoolVar(&verbose, "v", false, "print each host's phase times on stderr")
	printRestart := flag.String("print-restart", "", "print the restart-like command for this host dir and exit")
	flag.Parse()
	if *printRestart != "" {
		fmt.Println(RestartCommand(*printRestart))
		return
	}
	start := time.Now()
	if err := run(*hostsFile, *tmplDir, *key, *known, *gen); err != nil {
		fmt.Fprintln(os.Stderr, "fanout:", err)
		os.Exit(1)
	}
	fmt.Printf("fanout: done in %.3fs\n", time.Since(start).Seconds())
}

func run(hostsFile, tmplDir, key, known string, gen int) error {
	hosts, err := readHosts(hostsFile)
	if err != nil {
		return err
	}
	confs, err := loadTemplates(tmplDir)
	if err != nil {
		return err
	}
	var cfgs []remote.Config
	for _, h := range hosts {
		cfgs = append(cfgs, remote.Config{Name: h.name, Address: h.addr, Port: h.port, User: "root",
			IdentityFiles: []string{key}, KnownHosts: []string{known}, SSHConfigFile: "none"})
	}
	pool, err := remote.NewPool(cfgs, remote.Parallelism(len(hosts)))
	if err != nil {
		return err
	}
	defer pool.Close()
	byName := map[string]host{}
	for _, h := range hosts {
		byName[h.name] = h
	}
	sum := pool.FanOut(context.Background(), pool.Hosts(), func(ctx context.Context, name string) error {
		return deploy(ctx, pool, byName[name], confs, gen)
	})
	return sum.Err()
}

// deploy pushes the rendered confs to one host, then restarts its daemon.
func deploy(ctx context.Context, pool *remote.Pool, h host, confs []conf, gen int) error {
	t0 := time.Now()
	if err := pool.Connect(ctx, h.name); err != nil {
		return err
	}
	t1 := time.Now()
	vars := map[string]string{"host": h.name, "addr": h.addr, "gen": strconv.Itoa(gen),
		"workers": "4", "node_timeout": "10", "servers_per_port": "0"}
	var files []remote.File
	for _, c := range confs {
		b, err := c.render(vars)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", h.name, c.name, err)
		}
		files = append(files, remote.File{Path: filepath.Join(h.dir, "etc/swift", c.name), Content: b, Mode: 0o644})
	}
	if _, err := pool.UploadAll(ctx, h.name, files); err != nil {
		return err
	}
	t2 := time.Now()
	_, err := pool.Run(ctx, h.name, RestartCommand(h.dir))
	if verbose {
		fmt.Fprintf(os.Stderr, "%s: connect %v, upload %v, restart %v\n", h.name,
			t1.Sub(t0).Round(time.Millisecond), t2.Sub(t1).Round(time.Millisecond), time.Since(t2).Round(time.Millisecond))
	}
	return err
}

// RestartCommand is the restart-like command; bench/fanout/run gives Ansible
// the same text (fanout -print-restart).
func RestartCommand(dir string) string {
	return fmt.Sprintf(`d=%s/run; mkdir -p "$d"; if [ -f "$d/fake.pid" ]; then kill "$(cat "$d/fake.pid")" 2>/dev/null; fi; `+
		`setsid sleep 3600 </dev/null >/dev/null 2>&1 & echo $! > "$d/fake.pid"; kill -0 "$(cat "$d/fake.pid")"`, dir)
}

func readHosts(path string) ([]host, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var hosts []host
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 {
			continue
		}
		port, err := strconv.Atoi(fields[min(2, len(fields)-1)])
		if len(fields) != 4 || err != nil {
			return nil, fmt.Errorf("%s:%d: want \"name address port dir\"", path, n)
		}
		hosts = append(hosts, host{name: fields[0], addr: fields[1], port: port, dir: fields[3]})
	}
	if len(hosts) == 0 {
		return nil, fmt.Errorf("%s: no hosts", path)
	}
	return hosts, sc.Err()
}
