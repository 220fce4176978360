//! The engine's modules must not depend on each other in a circle (the
//! app's layers have the same guard in dependency-cruiser). This reads
//! `core/src`: each file is a module, and a module depends on another when
//! its non-test code names it by `crate::`, `super::` or `self::` (a
//! parent's use of its own submodules is structure and does not count).
//! There are none; `KNOWN_CYCLES` would list any that had to be tolerated,
//! and the test fails when one appears or a listed one changes.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// Strongly connected groups of more than one module, as sorted module
/// paths. None since validation moved above the schema (`validation`).
const KNOWN_CYCLES: &[&[&str]] = &[];

fn src_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

/// Every `.rs` file under `src` as (module path, file).
fn modules() -> BTreeMap<String, PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for e in std::fs::read_dir(dir).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|x| x == "rs") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&src_dir(), &mut files);
    files
        .into_iter()
        .map(|f| {
            let rel = f.strip_prefix(src_dir()).unwrap().with_extension("");
            let mut parts: Vec<String> = rel
                .iter()
                .map(|s| s.to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|l| l == "mod" || l == "lib") {
                parts.pop();
            }
            (parts.join("::"), f)
        })
        .collect()
}

/// The code of a file without comments, string literals and the items
/// marked `#[cfg(test)]` (a `mod tests;` line, a `mod tests { … }` block or
/// any other item), wherever in the file they stand.
fn code_of(text: &str) -> String {
    without_test_items(&without_comments(text))
}

fn without_comments(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("//") {
            rest = r.find('\n').map_or("", |i| &r[i..]);
        } else if let Some(r) = rest.strip_prefix("/*") {
            rest = r.find("*/").map_or("", |i| &r[i + 2..]);
        } else if rest.starts_with('"') {
            // Skip a string literal (escapes included).
            let bytes = rest.as_bytes();
            let mut i = 1;
            while i < bytes.len() && bytes[i] != b'"' {
                i += if bytes[i] == b'\\' { 2 } else { 1 };
            }
            out.push_str("\"\"");
            rest = &rest[(i + 1).min(rest.len())..];
        } else {
            let c = rest.chars().next().unwrap();
            out.push(c);
            rest = &rest[c.len_utf8()..];
        }
    }
    out
}

/// Drops each `#[cfg(test)]` item: up to its `;` when that comes before any
/// `{`, else through its balanced `{ … }` block.
fn without_test_items(code: &str) -> String {
    const MARK: &str = "#[cfg(test)]";
    let mut out = String::new();
    let mut rest = code;
    while let Some(at) = rest.find(MARK) {
        out.push_str(&rest[..at]);
        let item = &rest[at + MARK.len()..];
        let semi = item.find(';');
        let brace = item.find('{');
        let end = match (semi, brace) {
            (Some(s), Some(b)) if s < b => s + 1,
            (Some(s), None) => s + 1,
            (_, Some(b)) => {
                let mut depth = 0usize;
                let mut end = item.len();
                for (i, c) in item[b..].char_indices() {
                    match c {
                        '{' => depth += 1,
                        '}' => {
                            depth -= 1;
                            if depth == 0 {
                                end = b + i + 1;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                end
            }
            (None, None) => item.len(),
        };
        rest = &item[end..];
    }
    out.push_str(rest);
    out
}

fn is_ident(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Paths of a use tree or an inline path starting at `s`: `a::b::{c, d::e}`.
fn paths(s: &str) -> Vec<Vec<String>> {
    fn tree(s: &[char], i: &mut usize, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
        let mut path = prefix;
        loop {
            while *i < s.len() && s[*i].is_whitespace() {
                *i += 1;
            }
            if *i < s.len() && s[*i] == '{' {
                *i += 1;
                loop {
                    tree(s, i, path.clone(), out);
                    while *i < s.len() && s[*i].is_whitespace() {
                        *i += 1;
                    }
                    match s.get(*i) {
                        Some(',') => *i += 1,
                        Some('}') => {
                            *i += 1;
                            return;
                        }
                        _ => return,
                    }
                    while *i < s.len() && s[*i].is_whitespace() {
                        *i += 1;
                    }
                    if s.get(*i) == Some(&'}') {
                        *i += 1;
                        return;
                    }
                }
            }
            let start = *i;
            while *i < s.len() && is_ident(s[*i]) {
                *i += 1;
            }
            if *i == start {
                break;
            }
            path.push(s[start..*i].iter().collect());
            if s.get(*i) == Some(&':') && s.get(*i + 1) == Some(&':') {
                *i += 2;
            } else {
                break;
            }
        }
        out.push(path);
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = Vec::new();
    tree(&chars, &mut 0, Vec::new(), &mut out);
    out
}

/// The modules `module`'s code depends on.
fn dependencies(module: &str, code: &str, all: &BTreeMap<String, PathBuf>) -> BTreeSet<String> {
    let own: Vec<&str> = if module.is_empty() {
        vec![]
    } else {
        module.split("::").collect()
    };
    let children: BTreeSet<String> = all
        .keys()
        .filter_map(|m| {
            let rest = if own.is_empty() {
                Some(m.as_str())
            } else {
                m.strip_prefix(&format!("{module}::"))
            };
            rest.filter(|r| !r.is_empty() && !r.contains("::"))
                .map(str::to_string)
        })
        .collect();
    let mut deps = BTreeSet::new();
    let mut resolve = |absolute: Vec<String>| {
        // The longest prefix that is a module.
        for n in (1..=absolute.len()).rev() {
            let m = absolute[..n].join("::");
            if all.contains_key(&m) {
                // A parent's use of its own children (its parts, often
                // re-exported) is structure, not a dependency between peers.
                let own_part = module.is_empty() || m.starts_with(&format!("{module}::"));
                if m != module && !own_part {
                    deps.insert(m);
                }
                return;
            }
        }
    };
    for (i, _) in code.char_indices() {
        let before = code[..i].chars().next_back();
        if before.is_some_and(|c| is_ident(c) || c == ':') {
            continue;
        }
        let rest = &code[i..];
        let (base, tail): (Vec<String>, &str) = if let Some(t) = rest.strip_prefix("crate::") {
            (vec![], t)
        } else if let Some(t) = rest.strip_prefix("super::") {
            (
                own[..own.len().saturating_sub(1)]
                    .iter()
                    .map(|s| s.to_string())
                    .collect(),
                t,
            )
        } else if let Some(t) = rest.strip_prefix("self::") {
            (own.iter().map(|s| s.to_string()).collect(), t)
        } else {
            let name: String = rest.chars().take_while(|&c| is_ident(c)).collect();
            if !children.contains(&name) || !rest[name.len()..].starts_with("::") {
                continue;
            }
            (own.iter().map(|s| s.to_string()).collect(), rest)
        };
        for p in paths(tail) {
            let mut absolute = base.clone();
            absolute.extend(p);
            resolve(absolute);
        }
    }
    deps
}

/// Tarjan's strongly connected components with more than one member.
fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct T<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    fn visit<'g>(t: &mut T<'g>, v: &'g str) {
        let n = t.index.len();
        t.index.insert(v, n);
        t.low.insert(v, n);
        t.stack.push(v);
        t.on.insert(v);
        for w in &t.graph[v] {
            let w = w.as_str();
            if !t.index.contains_key(w) {
                visit(t, w);
                let lw = t.low[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(lw);
            } else if t.on.contains(w) {
                let iw = t.index[w];
                let lv = t.low.get_mut(v).unwrap();
                *lv = (*lv).min(iw);
            }
        }
        if t.low[v] == t.index[v] {
            let mut group = Vec::new();
            loop {
                let w = t.stack.pop().unwrap();
                t.on.remove(w);
                group.push(w.to_string());
                if w == v {
                    break;
                }
            }
            if group.len() > 1 {
                group.sort();
                t.out.push(group);
            }
        }
    }
    let mut t = T {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !t.index.contains_key(v.as_str()) {
            visit(&mut t, v);
        }
    }
    t.out.sort();
    t.out
}

fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let all = modules();
    all.iter()
        .map(|(m, f)| {
            let code = code_of(&std::fs::read_to_string(f).unwrap());
            (m.clone(), dependencies(m, &code, &all))
        })
        .collect()
}

#[test]
fn the_reader_sees_known_dependencies() {
    let g = graph();
    // sim drives the TCP sender and the bottleneck; tcp::sender uses its
    // sibling rtt through super::; the crate root is not a dependency.
    assert!(
        g["sim"].contains("tcp::sender") || g["sim"].contains("tcp"),
        "{:?}",
        g["sim"]
    );
    assert!(g["sim"].contains("aqm"), "{:?}", g["sim"]);
    assert!(
        g["tcp::sender"].contains("tcp::rtt"),
        "{:?}",
        g["tcp::sender"]
    );
    assert!(!g["rng"].contains(""), "{:?}", g["rng"]);
    // Code after a `#[cfg(test)] mod x;` line is still read.
    let code = code_of("#[cfg(test)]\nmod testing;\nuse crate::sim::Sim;\n#[cfg(test)]\nmod tests { use crate::rng::Rng; }\n");
    assert!(
        code.contains("crate::sim::Sim") && !code.contains("rng"),
        "{code}"
    );
    // A made-up cycle is found.
    let mut h = g.clone();
    h.get_mut("rng").unwrap().insert("sim".into());
    assert!(cycles(&h).iter().any(|c| c.contains(&"rng".to_string())));
}

#[test]
fn no_new_module_cycles_in_the_engine() {
    let found = cycles(&graph());
    let known: Vec<Vec<String>> = KNOWN_CYCLES
        .iter()
        .map(|c| c.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(
        found, known,
        "module cycles in core/src changed: found {found:#?}; break a new one, or update KNOWN_CYCLES when one is gone"
    );
}
