package confine

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Executors are the ways out of a sandbox through a program already running
// outside it, that a confined command could ask to act for it: the socket
// of an agent or a server (ssh-agent, gpg-agent, the Docker daemon, the
// D-Bus buses and systemd, tmux and screen servers, an X11 or Wayland
// display, an editor's or a terminal's remote control). Landlock does not
// govern connect(2) to a named socket, so the launcher hides them in the
// command's mount namespace (README, "What the kernel enforces"):
// abstract sockets and signals to processes outside the sandbox are
// scoped by Landlock itself from ABI 6.
type Executors struct {
	// Hide are sockets (and directories of them) to hide: each gets the
	// stand-in of a hidden path.
	Hide []string
	// Tmpfs are directories of sockets and runtime state to replace by an
	// empty tmpfs of the command's own: $XDG_RUNTIME_DIR, tmux's and
	// screen's directories, /tmp/.X11-unix.
	Tmpfs []string
	// Why says, for each path, what it leads to (for explain).
	Why map[string]string
}

// socketVars are the environment variables that name a socket leading to
// a program outside the sandbox, with what it is. The value is a path, or
// for some a URL or a list (see SocketPath).
var socketVars = []struct{ name, what string }{
	{"SSH_AUTH_SOCK", "ssh-agent"},
	{"GPG_AGENT_INFO", "gpg-agent"},
	{"DOCKER_HOST", "the Docker daemon"},
	{"CONTAINER_HOST", "the Podman service"},
	{"DBUS_SESSION_BUS_ADDRESS", "the D-Bus session bus"},
	{"DBUS_SYSTEM_BUS_ADDRESS", "the D-Bus system bus"},
	{"TMUX", "the tmux server"},
	{"STY", "the screen session"},
	{"VSCODE_IPC_HOOK_CLI", "VS Code's command line server"},
	{"VSCODE_IPC_HOOK", "VS Code"},
	{"VSCODE_GIT_IPC_HANDLE", "VS Code's git askpass"},
	{"KITTY_LISTEN_ON", "kitty's remote control"},
	{"WEZTERM_UNIX_SOCKET", "WezTerm's multiplexer"},
	{"ALACRITTY_SOCKET", "Alacritty's IPC"},
	{"NVIM", "a Neovim server"},
	{"NVIM_LISTEN_ADDRESS", "a Neovim server"},
	{"SWAYSOCK", "the sway window manager"},
	{"I3SOCK", "the i3 window manager"},
	{"GNOME_KEYRING_CONTROL", "the GNOME keyring"},
	{"PULSE_SERVER", "the PulseAudio server"},
}

// fixedSockets are sockets at known places that lead to daemons running
// outside (the Docker and Podman engines, containerd, D-Bus, systemd as
// PID 1, snapd, libvirt).
var fixedSockets = []struct{ path, what string }{
	{"/run/docker.sock", "the Docker daemon"},
	{"/var/run/docker.sock", "the Docker daemon"},
	{"/run/podman/podman.sock", "the Podman service"},
	{"/run/containerd/containerd.sock", "containerd"},
	{"/run/dbus/system_bus_socket", "the D-Bus system bus"},
	{"/var/run/dbus/system_bus_socket", "the D-Bus system bus"},
	{"/run/systemd/private", "systemd"},
	{"/run/snapd.socket", "snapd"},
	{"/run/snapd-snap.socket", "snapd"},
	{"/run/libvirt/libvirt-sock", "libvirt"},
	{"~/.docker/run/docker.sock", "Docker Desktop"},
	{"~/.colima/default/docker.sock", "Colima's Docker"},
	{"~/.local/share/containers/podman/machine/podman.sock", "a Podman machine"},
	{"~/.screen", "screen sessions"},
	{"~/.emacs.d/server", "the Emacs server"},
}

// FindExecutors returns the executors reachable from this environment:
// getenv is the command's environment, uid the user's ID, home $HOME. It
// looks at the paths the environment names, at the ssh agents the ssh
// configuration names ([SSHAgents]), at fixed places, in $XDG_RUNTIME_DIR
// (or /run/user/UID), and at the top level of the temporary directories
// (sockets, and the directories ssh-agent, tmux, screen, X11 and editors
// make there). Paths are resolved; only those that exist are returned. It
// lists at most two directories, reads the ssh configuration files and
// stats a few dozen paths. It knows sockets by name only: the hook adds
// every other socket bound outside the sandbox from [BoundSockets].
func FindExecutors(getenv func(string) string, uid int, home string) Executors {
	e := Executors{Why: map[string]string{}}
	add := func(list *[]string, p, what string) {
		r, err := filepath.EvalSymlinks(p)
		if err != nil || !filepath.IsAbs(r) {
			return
		}
		if !slices.Contains(*list, r) {
			*list = append(*list, r)
			e.Why[r] = what
		}
	}
	runtime := getenv("XDG_RUNTIME_DIR")
	if !filepath.IsAbs(runtime) && uid >= 0 {
		runtime = "/run/user/" + strconv.Itoa(uid)
	}
	if filepath.IsAbs(runtime) && runtime != "/" && runtime != "/tmp" {
		add(&e.Tmpfs, runtime, "the user's runtime directory (D-Bus, systemd, Wayland, gpg-agent and keyring sockets)")
	}
	for _, v := range socketVars {
		if p := SocketPath(v.name, getenv(v.name), runtime); p != "" {
			add(&e.Hide, p, v.what+" ($"+v.name+")")
		}
	}
	for _, p := range SSHAgents(getenv, home) {
		add(&e.Hide, p, "an ssh agent (IdentityAgent in the ssh configuration)")
	}
	for _, f := range fixedSockets {
		p := f.path
		if rest, ok := strings.CutPrefix(p, "~/"); ok {
			if !filepath.IsAbs(home) {
				continue
			}
			p = filepath.Join(home, rest)
		}
		add(&e.Hide, p, f.what)
	}
	for _, d := range []string{"/run/screen", "/var/run/screen"} {
		if u := getenv("USER"); u != "" {
			add(&e.Tmpfs, d+"/S-"+u, "screen sessions")
		}
	}
	tmps := []string{"/tmp"}
	if t := getenv("TMPDIR"); filepath.IsAbs(t) && filepath.Clean(t) != "/tmp" {
		tmps = append(tmps, filepath.Clean(t))
	}
	if t := getenv("TMUX_TMPDIR"); filepath.IsAbs(t) {
		add(&e.Tmpfs, filepath.Join(t, "tmux-"+strconv.Itoa(uid)), "tmux servers")
	}
	for _, dir := range tmps {
		ents, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, ent := range ents {
			p := filepath.Join(dir, ent.Name())
			if ent.Type()&fs.ModeSocket != 0 {
				add(&e.Hide, p, "a socket in "+dir)
				continue
			}
			if !ent.IsDir() {
				continue
			}
			if what := tmpSocketDir(ent.Name(), uid); what != "" {
				add(&e.Tmpfs, p, what)
			}
		}
	}
	// A socket inside a directory that gets a tmpfs needs no hiding.
	e.Hide = slices.DeleteFunc(e.Hide, func(p string) bool {
		return slices.ContainsFunc(e.Tmpfs, func(d string) bool { return p != d && within(p, d) })
	})
	slices.Sort(e.Hide)
	slices.Sort(e.Tmpfs)
	return e
}

// tmpSocketDir says what the directory name, at the top of a temporary
// directory, holds when it is one where a program outside keeps its
// sockets, or "".
func tmpSocketDir(name string, uid int) string {
	u := strconv.Itoa(uid)
	switch {
	case strings.HasPrefix(name, "ssh-"):
		return "ssh-agent sockets"
	case name == "tmux-"+u:
		return "tmux servers"
	case name == ".X11-unix":
		return "X11 displays"
	case name == ".ICE-unix":
		return "X session management"
	case name == "emacs"+u:
		return "the Emacs server"
	case strings.HasPrefix(name, "nvim."):
		return "Neovim servers"
	case strings.HasPrefix(name, "kitty-"):
		return "kitty's remote control"
	case strings.HasPrefix(name, "screens"), strings.HasPrefix(name, "uscreens"):
		return "screen sessions"
	}
	return ""
}

// SocketPath returns the socket path the variable name's value names, or
// "": a path; unix://PATH (DOCKER_HOST); unix:path=PATH,... (D-Bus, whose
// abstract and tcp addresses name no file); PATH,PID,N (TMUX); PATH:PID:1
// (GPG_AGENT_INFO); unix:PATH (kitty); a bare name relative to the
// runtime directory (WAYLAND_DISPLAY style).
func SocketPath(name, v, runtime string) string {
	if v == "" {
		return ""
	}
	switch name {
	case "DOCKER_HOST", "CONTAINER_HOST":
		p, ok := strings.CutPrefix(v, "unix://")
		if !ok {
			return ""
		}
		return p
	case "DBUS_SESSION_BUS_ADDRESS", "DBUS_SYSTEM_BUS_ADDRESS":
		for _, addr := range strings.Split(v, ";") {
			rest, ok := strings.CutPrefix(addr, "unix:")
			if !ok {
				continue
			}
			for _, kv := range strings.Split(rest, ",") {
				if p, ok := strings.CutPrefix(kv, "path="); ok {
					return p
				}
			}
		}
		return ""
	case "TMUX":
		p, _, _ := strings.Cut(v, ",")
		return p
	case "GPG_AGENT_INFO":
		p, _, _ := strings.Cut(v, ":")
		return p
	case "KITTY_LISTEN_ON":
		p, ok := strings.CutPrefix(v, "unix:")
		if !ok || strings.HasPrefix(p, "@") {
			return ""
		}
		return p
	case "STY":
		return "" // a session name: the directories are hidden whole
	}
	if !filepath.IsAbs(v) {
		if runtime == "" || strings.Contains(v, "/") || strings.Contains(v, ":") {
			return ""
		}
		return filepath.Join(runtime, v)
	}
	return v
}
