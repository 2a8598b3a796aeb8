package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/safezonehq/safezone/policy/glob"
)

// File names at the project root.
const (
	ProjectFile = ".safezone.yaml"
	LocalFile   = ".safezone.local.yaml"
)

// SelfProtectionSource is the Pos.File of the patterns that protect
// safezone's own configuration (see [SelfProtection]).
const SelfProtectionSource = "self-protection"

// Locations says where each layer's file is. Paths are absolute.
type Locations struct {
	ProjectRoot string
	Home        string
	// Managed is the managed policy: /etc/safezone/policy.yaml, or
	// $SAFEZONE_MANAGED_POLICY.
	Managed string
	// User is $XDG_CONFIG_HOME/safezone/policy.yaml (default
	// ~/.config/safezone/policy.yaml).
	User string
	// Files are the --policy files, in order; relative to the working
	// directory.
	Files []string
	// ClaudeManaged is Claude Code's managed-settings.json; the files of
	// managed-settings.d beside it are read too, in name order. On Linux
	// /etc/claude-code/managed-settings.json, on macOS
	// /Library/Application Support/ClaudeCode/managed-settings.json, or
	// $SAFEZONE_CLAUDE_MANAGED_SETTINGS.
	ClaudeManaged string
	// Executable is safezone's own binary, protected like its
	// configuration; empty if unknown.
	Executable string
	// ClaudeConfig is Claude Code's user configuration directory:
	// $CLAUDE_CONFIG_DIR, else ~/.claude (Claude Code settings reference,
	// "Environment variables"). Its settings.json is the user settings.
	ClaudeConfig string
	// CodexHome is Codex's home: $CODEX_HOME, else ~/.codex (Codex
	// configuration reference).
	CodexHome string
	// State is safezone's state directory: $XDG_STATE_HOME/safezone, else
	// ~/.local/state/safezone ("" when neither is absolute). It holds the
	// trust records and watch lists, protected like the configuration.
	State string
	// Trusted reports whether the user trusted the file at path (a layer
	// that comes with the repository) with exactly this content; nil trusts
	// none. [LoadLayers] asks it only about a file with something to widen.
	Trusted func(path string, content []byte) bool
	// ReadFile reads a policy or settings file, at most MaxFileSize bytes
	// of it, with an error satisfying errors.Is(err, fs.ErrNotExist) for a
	// file that does not exist; nil reads the file system ([ReadCapped]).
	// The hook passes a reader that remembers what it read, to find its
	// own registration in the settings afterwards.
	ReadFile func(path string) ([]byte, error)
}

// read is loc.ReadFile, or ReadCapped.
func (loc Locations) read(path string) ([]byte, error) {
	if loc.ReadFile != nil {
		return loc.ReadFile(path)
	}
	return ReadCapped(path)
}

// DefaultLocations computes the standard locations from the environment
// (getenv) for a project root and home directory.
func DefaultLocations(getenv func(string) string, projectRoot, home string) Locations {
	loc := Locations{ProjectRoot: projectRoot, Home: home}
	loc.Managed = getenv("SAFEZONE_MANAGED_POLICY")
	if loc.Managed == "" {
		loc.Managed = "/etc/safezone/policy.yaml"
	}
	config := getenv("XDG_CONFIG_HOME")
	if config == "" && home != "" {
		config = filepath.Join(home, ".config")
	}
	if config != "" {
		loc.User = filepath.Join(config, "safezone", "policy.yaml")
	}
	loc.ClaudeConfig = getenv("CLAUDE_CONFIG_DIR")
	if loc.ClaudeConfig == "" && home != "" {
		loc.ClaudeConfig = filepath.Join(home, ".claude")
	}
	loc.CodexHome = getenv("CODEX_HOME")
	if loc.CodexHome == "" && home != "" {
		loc.CodexHome = filepath.Join(home, ".codex")
	}
	loc.State = StateDir(getenv)
	loc.ClaudeManaged = getenv("SAFEZONE_CLAUDE_MANAGED_SETTINGS")
	if loc.ClaudeManaged == "" {
		loc.ClaudeManaged = "/etc/claude-code/managed-settings.json"
		if runtime.GOOS == "darwin" {
			loc.ClaudeManaged = "/Library/Application Support/ClaudeCode/managed-settings.json"
		}
	}
	return loc
}

// StateDir is safezone's state directory from the environment (getenv):
// $XDG_STATE_HOME/safezone, else $HOME/.local/state/safezone; "" when
// neither variable is an absolute path.
func StateDir(getenv func(string) string) string {
	if d := getenv("XDG_STATE_HOME"); filepath.IsAbs(d) {
		return filepath.Join(d, "safezone")
	}
	if h := getenv("HOME"); filepath.IsAbs(h) {
		return filepath.Join(h, ".local", "state", "safezone")
	}
	return ""
}

// LoadLayers reads every policy layer, lowest precedence first (README,
// "Layers"): the embedded default, always, then managed, user, project
// (.safezone.yaml), local (.safezone.local.yaml), each --policy file.
// Unless the merged host_settings is false, Claude Code's settings follow
// (managed, user, project, local), contributing their permission rules and
// additionalDirectories. Then, unless the managed layer turns it off, the
// self-protection layer, and last the flags (which may be nil).
//
// The layers that come with the repository (Scope.FromRepository) are
// marked Trusted when loc.Trusted says the user trusted their content;
// loc.Trusted is asked only about a file that has something to widen (see
// [Restrict]), so that a project whose files only tighten costs no lookup.
//
// A missing --policy file is an error; a missing standard file is skipped.
// Errors name the file; a layer setting what only the managed layer may is
// an error too (see [CheckScope]), and so is a removal that names no entry
// of a lower layer.
//
// embedded returns the embedded default (the hook passes a Layer compiled
// at build time, so that a call never runs the YAML decoder for it;
// [EmbeddedParser] parses YAML instead).
func LoadLayers(loc Locations, embedded func() (*Layer, error), flags *Layer) ([]*Layer, error) {
	base, err := embedded()
	if err != nil {
		return nil, err
	}
	base.Scope = ScopeDefault
	layers := []*Layer{base}
	var errs []error
	if flags != nil {
		flags.Scope = ScopeFlags
	}
	optional := []struct {
		path  string
		scope Scope
	}{
		{loc.Managed, ScopeManaged},
		{loc.User, ScopeUser},
		{join(loc.ProjectRoot, ProjectFile), ScopeProject},
		{join(loc.ProjectRoot, LocalFile), ScopeLocal},
	}
	for _, o := range optional {
		if o.path == "" {
			continue
		}
		l, err := load(loc.read, o.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l.Scope = o.scope
		layers = append(layers, l)
	}
	for _, f := range loc.Files {
		l, err := load(loc.read, f)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		l.Scope = ScopeFile
		layers = append(layers, l)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	for _, l := range layers {
		if err := CheckScope(l); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	merged := loc.settleTrust(layers, flags)
	if err := merged.Err(); err != nil {
		return nil, err
	}
	if merged.HostSettings.Value {
		settings, err := loadClaudeLayers(loc)
		if err != nil {
			return nil, err
		}
		layers = append(layers, settings...)
		// Settings files hold rules and directories only: they change
		// nothing merged reports below, and need merging again only to
		// settle the trust of one that could widen.
		if slices.ContainsFunc(settings, pendingTrust) {
			merged = loc.settleTrust(layers, flags)
		}
	}
	if merged.SelfProtection.Value {
		sp := SelfProtection(loc, layers)
		protectAuditLog(sp, merged.Audit.File(loc.Home, loc.ProjectRoot))
		layers = append(layers, sp)
	}
	if flags != nil {
		layers = append(layers, flags)
	}
	return layers, nil
}

// settleTrust asks loc.Trusted about each layer that comes with the
// repository and has something to widen, marks the trusted ones, and
// returns the merge of layers and flags that follows. Trusting a lower
// layer changes what a higher one widens (mostly less; an audit.path equal
// to one held back below becomes a change), so it merges again until no
// layer is left to ask about: each is asked at most once.
func (loc Locations) settleTrust(layers []*Layer, flags *Layer) *Policy {
	for {
		merged := Merge(append(slices.Clone(layers), flags)...)
		asked := false
		for _, l := range layers {
			if !pendingTrust(l) || !slices.ContainsFunc(merged.Untrusted, func(u Untrusted) bool { return u.Pos.File == l.Name }) {
				continue
			}
			l.asked, asked = true, true
			l.Trusted = loc.Trusted != nil && loc.Trusted(l.Name, l.data)
		}
		if !asked {
			return merged
		}
	}
}

// pendingTrust reports whether l comes with the repository, could widen
// (see [Layer.mayWiden]) and Locations.Trusted was not asked about it yet.
func pendingTrust(l *Layer) bool {
	return l.Scope.FromRepository() && !l.Trusted && !l.asked && l.mayWiden()
}

// EmbeddedParser returns the function [LoadLayers] calls for the embedded
// default that parses data under [EmbeddedName].
func EmbeddedParser(data []byte) func() (*Layer, error) {
	return func() (*Layer, error) { return Parse(EmbeddedName, data) }
}

// Load reads and parses the policy file at path (see [Parse]). The file may
// be at most [MaxFileSize] bytes. A file that does not exist is an error
// satisfying errors.Is(err, fs.ErrNotExist).
func Load(path string) (*Layer, error) { return load(ReadCapped, path) }

// load is [Load] reading with read.
func load(read func(string) ([]byte, error), path string) (*Layer, error) {
	data, err := read(path)
	if err != nil {
		return nil, fmt.Errorf("cannot read policy: %w", err)
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	l, err := Parse(path, data)
	if l != nil {
		l.Dir = filepath.Dir(abs)
		l.data = data
	}
	return l, err
}

// SettingsFile is one Claude Code settings file and how to read it.
type SettingsFile struct {
	Path   string
	Source ClaudeSource
}

// ClaudeSettingsFiles lists Claude Code's settings files, lowest precedence
// first (settings reference, "Settings files"): managed-settings.json and
// managed-settings.d/*.json, ~/.claude/settings.json, then the project's
// .claude/settings.json and .claude/settings.local.json.
func ClaudeSettingsFiles(loc Locations) []SettingsFile {
	var out []SettingsFile
	if loc.ClaudeManaged != "" {
		dir := filepath.Dir(loc.ClaudeManaged)
		managed := ClaudeSource{Scope: ScopeManaged, SlashBase: glob.Escape(dir) + "/", DirBase: dir}
		out = append(out, SettingsFile{loc.ClaudeManaged, managed})
		if more, err := filepath.Glob(filepath.Join(dir, "managed-settings.d", "*.json")); err == nil {
			slices.Sort(more)
			for _, m := range more {
				out = append(out, SettingsFile{m, managed})
			}
		}
	}
	if dir := loc.claudeConfig(); dir != "" {
		slash := "~/.claude/"
		if loc.Home == "" || filepath.Join(loc.Home, ".claude") != dir {
			slash = glob.Escape(filepath.ToSlash(dir)) + "/"
		}
		user := ClaudeSource{Scope: ScopeUser, SlashBase: slash, DirBase: loc.Home}
		out = append(out, SettingsFile{filepath.Join(dir, "settings.json"), user})
	}
	if loc.ProjectRoot != "" {
		out = append(out,
			SettingsFile{filepath.Join(loc.ProjectRoot, ".claude", "settings.json"), ClaudeSource{Scope: ScopeProject, SlashBase: "./"}},
			SettingsFile{filepath.Join(loc.ProjectRoot, ".claude", "settings.local.json"), ClaudeSource{Scope: ScopeLocal, SlashBase: "./"}})
	}
	return out
}

// claudeConfig is loc.ClaudeConfig, or ~/.claude when a caller built
// Locations by hand.
func (loc Locations) claudeConfig() string {
	if loc.ClaudeConfig != "" || loc.Home == "" {
		return loc.ClaudeConfig
	}
	return filepath.Join(loc.Home, ".claude")
}

// codexHome is loc.CodexHome, or ~/.codex.
func (loc Locations) codexHome() string {
	if loc.CodexHome != "" || loc.Home == "" {
		return loc.CodexHome
	}
	return filepath.Join(loc.Home, ".codex")
}

func loadClaudeLayers(loc Locations) ([]*Layer, error) {
	var out []*Layer
	var errs []error
	for _, f := range ClaudeSettingsFiles(loc) {
		l, err := loadClaudeSettings(loc.read, f.Path, f.Source)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		if l != nil && (len(l.Deny)+len(l.Ask)+len(l.Allow)+len(l.AdditionalDirectories) > 0 || len(l.Warnings) > 0 || l.claudeSandbox != nil) {
			out = append(out, l)
		}
	}
	return out, errors.Join(errs...)
}

// SelfProtection returns the layer that protects safezone's own
// configuration from writes (README, "Layers", "Self-protection"):
// every policy layer file, loaded or only possible (an agent could create
// .safezone.local.yaml to loosen the policy), Claude Code's settings files
// (where the hook is registered), the other hosts' hook configurations,
// hooks.json, the other hosts' project files that run code (.vscode's
// tasks, settings, launch and MCP files, .cursor/mcp.json, .envrc), the
// files the hosts' settings run ([HostCodeFiles], each pattern's Why naming
// the setting), and the safezone binary itself. Each pattern also covers
// where its path resolves to (Pattern.Resolve). Only the managed layer can
// turn it off (self_protection: false).
func SelfProtection(loc Locations, layers []*Layer) *Layer {
	l := &Layer{Name: SelfProtectionSource, Scope: ScopeBuiltin}
	pos := Pos{File: SelfProtectionSource}
	seen := map[string]bool{}
	add := func(text string) {
		if text == "" || seen[text] {
			return
		}
		seen[text] = true
		if p, err := CompilePattern(text, pos); err == nil {
			p.Resolve = true
			l.Protected = append(l.Protected, p)
		}
	}
	addAbs := func(path string) {
		if path != "" && filepath.IsAbs(path) {
			add(glob.Escape(filepath.ToSlash(filepath.Clean(path))))
		}
	}
	// Relative to the project root, whatever spelling reaches it: the
	// hosts' project configuration (hooks, permissions, MCP servers, which
	// run code: .mcp.json, .codex/ whole), and .claude/hooks/, where hook
	// scripts the settings run conventionally live (the host runs them,
	// unconfined, at every tool call).
	for _, rel := range []string{
		ProjectFile, LocalFile, ".claude/settings.json", ".claude/settings.local.json", ".claude/hooks/**", ".mcp.json",
		"hooks.json", "hooks/hooks.json", ".codex/**", ".gemini/settings.json",
		".github/hooks/*.json", ".cursor/hooks.json", ".cursor/sandbox.json",
		// The other hosts' project files that run code when the user opens
		// the project (VS Code's tasks with runOn folderOpen, its settings
		// and launch configurations, Cursor's and VS Code's MCP servers,
		// Cursor's background-agent environment, Gemini CLI's
		// extensions, direnv's .envrc).
		".vscode/tasks.json", ".vscode/settings.json", ".vscode/launch.json", ".vscode/mcp.json",
		".cursor/mcp.json", ".cursor/environment.json", ".gemini/extensions/**", ".envrc",
	} {
		add("./" + rel)
	}
	// The user's: each host's settings and hooks, Claude Code's plugins
	// (installed plugins run their own hooks: the cache, installed_plugins.json,
	// known_marketplaces.json) and ~/.claude.json (MCP servers and each
	// project's allowed tools), where the user moved them too.
	for _, rel := range []string{".gemini/settings.json", ".cursor/hooks.json", ".claude.json"} {
		add("~/" + rel)
	}
	under := func(dir, home string, rels ...string) {
		base := "~/" + home
		if loc.Home == "" || filepath.Join(loc.Home, home) != dir {
			base = glob.Escape(filepath.ToSlash(filepath.Clean(dir)))
		}
		for _, rel := range rels {
			add(base + "/" + rel)
		}
	}
	if dir := loc.claudeConfig(); filepath.IsAbs(dir) {
		under(dir, ".claude", "settings.json", "settings.local.json", "hooks/**", "plugins/**")
	}
	if dir := loc.codexHome(); filepath.IsAbs(dir) {
		under(dir, ".codex", "hooks.json", "config.toml")
	}
	addAbs(loc.Managed)
	addAbs(loc.User)
	for _, f := range loc.Files {
		if abs, err := filepath.Abs(f); err == nil {
			addAbs(abs)
		}
	}
	if loc.ClaudeManaged != "" {
		addAbs(loc.ClaudeManaged)
		addAbs(filepath.Join(filepath.Dir(loc.ClaudeManaged), "managed-settings.d"))
	}
	for _, x := range layers {
		if filepath.IsAbs(x.Name) {
			addAbs(x.Name)
		}
	}
	addAbs(loc.Executable)
	// The files the hosts' settings run (hook scripts outside .claude/hooks,
	// the status line, MCP servers' scripts): each names its setting.
	for _, hc := range HostCodeFiles(loc) {
		text := glob.Escape(filepath.ToSlash(hc.Path))
		if fi, err := os.Stat(hc.Path); err == nil && fi.IsDir() {
			// A directory run (go run ./cmd/x): everything below it.
			text += "/**"
		}
		if seen[text] {
			continue
		}
		seen[text] = true
		if p, err := CompilePattern(text, pos); err == nil {
			p.Resolve, p.Why = true, hc.Why
			l.Protected = append(l.Protected, p)
		}
	}
	// The trust records and watch lists: an agent that writes them trusts
	// a repository's widening, or unwatches a file it made.
	addAbs(loc.State)
	return l
}

// protectAuditLog adds the audit log and its rotated files (file.1, ...)
// to the self-protection layer: an agent that can rewrite the record of
// what it did has no record.
func protectAuditLog(l *Layer, file string) {
	if file == "" || !filepath.IsAbs(file) {
		return
	}
	pos := Pos{File: SelfProtectionSource}
	lit := glob.Escape(filepath.ToSlash(filepath.Clean(file)))
	if p, err := CompilePattern(lit, pos); err == nil {
		p.Resolve = true
		l.Protected = append(l.Protected, p)
	}
	if p, err := CompilePattern(lit+".*", pos); err == nil {
		l.Protected = append(l.Protected, p)
	}
}

func join(dir, name string) string {
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, name)
}
