//! The operation table is the one place an operation is listed by hand: every host's list of
//! public names, and the component's world, must say the same, in both directions.

use std::collections::BTreeSet;

use agent_contract::api::table::{find, snake_case, Arg, Hosts, Reply, HOST_SUPPORT, OBJECTS, OPERATIONS};

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{}/{path}", env!("CARGO_MANIFEST_DIR"))).unwrap()
}

/// The public function names a host should have: each row for that host, and `safe<Name>`
/// where the row has a safe form.
fn expected(js: bool) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for op in OPERATIONS {
        let here = match op.hosts {
            Hosts::All => true,
            Hosts::Js => js,
            Hosts::Python => !js,
        };
        if !here {
            continue;
        }
        if js {
            names.insert(op.name.to_owned());
            if op.safe {
                let mut chars = op.name.chars();
                let first = chars.next().unwrap().to_ascii_uppercase();
                names.insert(format!("safe{first}{}", chars.as_str()));
            }
        } else {
            names.insert(op.python_name());
            if op.safe {
                names.insert(format!("safe_{}", op.python_name()));
            }
        }
    }
    names
}

/// A set's difference both ways, as a message that says what to fix where.
fn compare(what: &str, found: &BTreeSet<String>, expected: &BTreeSet<String>) {
    let extra: Vec<_> = found.difference(expected).collect();
    let missing: Vec<_> = expected.difference(found).collect();
    assert!(
        extra.is_empty() && missing.is_empty(),
        "{what} disagrees with src/api/table.rs: not in the table {extra:?}; in the table but missing here {missing:?}"
    );
}

/// Names that start with a capital are classes and types, not operations.
fn functions(names: BTreeSet<String>) -> BTreeSet<String> {
    names.into_iter().filter(|n| n.starts_with(|c: char| c.is_ascii_lowercase())).collect()
}

#[test]
fn the_typescript_declarations_list_the_table() {
    let text = read("pkg/index.d.ts");
    let declared: BTreeSet<String> = text
        .lines()
        .filter_map(|line| {
            line.strip_prefix("export function ").or_else(|| line.strip_prefix("export declare function "))
        })
        .map(|rest| rest.split(|c: char| c == '(' || c == '<').next().unwrap().trim().to_owned())
        .collect();
    compare("pkg/index.d.ts", &declared, &expected(true));
}

#[test]
fn python_all_lists_the_table() {
    let text = read("py-host/src/agent_contract/__init__.py");
    let start = text.find("__all__ = [").expect("__all__") + "__all__ = [".len();
    let end = start + text[start..].find(']').unwrap();
    let names: BTreeSet<String> = text[start..end]
        .lines()
        .map(|line| line.split('#').next().unwrap())
        .flat_map(|line| line.split(','))
        .map(|item| item.trim().trim_matches('"').to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    compare("agent_contract.__all__", &functions(names), &expected(false));
}

/// The functions Python makes from the table at run time have signatures for type checkers in
/// `_types.py`, re-exported by the names it adds to its `__all__` when type checking: exactly
/// the table's Python names that `__init__.py` does not define itself.
#[test]
fn python_signatures_cover_the_made_functions() {
    let init = read("py-host/src/agent_contract/__init__.py");
    let types = read("py-host/src/agent_contract/_types.py");
    let start = types.find("if TYPE_CHECKING:\n    __all__ += [").expect("the names of the signatures");
    let start = start + types[start..].find('[').unwrap() + 1;
    let end = start + types[start..].find(']').unwrap();
    let listed: BTreeSet<String> = types[start..end]
        .split(',')
        .map(|item| item.trim().trim_matches('"').to_owned())
        .filter(|n| !n.is_empty())
        .collect();
    // Defined in `__init__.py`, or imported there from the package's own modules.
    let mut imported = BTreeSet::new();
    for block in init.split("\nfrom .").skip(1) {
        let names = block.split_once(" import ").map_or("", |(_, rest)| rest);
        let names = match names.strip_prefix('(') {
            Some(list) => list.split(')').next().unwrap(),
            None => names.lines().next().unwrap(),
        };
        for item in names.split(',') {
            let item = item.split('#').next().unwrap().trim();
            imported.insert(item.rsplit(" as ").next().unwrap().trim().to_owned());
        }
    }
    let written = |name: &str| {
        init.contains(&format!("\ndef {name}(")) || init.contains(&format!("\nclass {name}")) || imported.contains(name)
    };
    let made: BTreeSet<String> = functions(expected(false)).into_iter().filter(|n| !written(n)).collect();
    compare("the signatures _types.py lists", &listed, &made);
}

/// The component's exports: functions of the world and of its interfaces, and resources. Each
/// function is a row, of the row's name, taking the row's arguments in its order (`text` for
/// text, a string of host text for the others, options last when the row reads any) and
/// returning what its reply kind says (a verdict on text: `result<u32, string>`), or host
/// support; each resource an object a row makes or a host holds for a row's work; and every row
/// for all hosts is there. One function per row: no twin without options, none for bytes.
#[test]
fn the_component_world_lists_the_table() {
    let text = read("wit/agent-contract.wit");
    // The public world and the interfaces; what only the test build exports is not shipped.
    let text = match text.find("interface testing") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    let mut functions = std::collections::BTreeMap::new();
    let mut resources = BTreeSet::new();
    let mut depth = 0usize;
    for line in text.lines() {
        let line = line.split("//").next().unwrap().trim();
        // Functions of the world and of interfaces, not methods of resources.
        let in_resource = depth >= 2;
        if let Some(rest) = line.strip_prefix("resource ") {
            resources.insert(rest.split([' ', '{']).next().unwrap().to_owned());
        } else if !in_resource {
            let rest = line.strip_prefix("export ").unwrap_or(line);
            if let Some((name, signature)) = rest.split_once(": func(") {
                let (params, result) = signature.split_once(')').unwrap();
                let types: Vec<String> = params
                    .split(',')
                    .filter(|p| !p.trim().is_empty())
                    .map(|p| p.split(':').nth(1).unwrap().trim().to_owned())
                    .collect();
                let result = result.trim().trim_start_matches("->").trim().trim_end_matches(';').to_owned();
                functions.insert(name.trim().to_owned(), (types, result));
            }
        }
        depth += line.matches('{').count();
        depth -= line.matches('}').count();
    }
    let support: BTreeSet<String> = HOST_SUPPORT.iter().map(|n| snake_case(n).replace('_', "-")).collect();
    let mut wrong = Vec::new();
    for (name, (types, result)) in &functions {
        if support.contains(name) {
            continue;
        }
        let Some(row) = OPERATIONS.iter().find(|o| o.hosts == Hosts::All && &o.wit_name() == name) else {
            wrong.push(format!("{name}: not a row"));
            continue;
        };
        let mut want: Vec<&str> = row
            .args
            .iter()
            .map(|a| match a {
                Arg::Text => "text",
                _ => "string",
            })
            .collect();
        if row.options != agent_contract::api::table::OptionKind::None {
            want.push("string");
        }
        // A value a host may also give as its JSON text (a dataset row) takes both.
        let same = types.len() == want.len()
            && types.iter().zip(&want).all(|(t, w)| t == w || (t == "value-or-text" && *w == "string"));
        if !same {
            wrong.push(format!("{name}: takes {types:?}, its row {want:?}"));
        }
        let want_result = match row.reply {
            Reply::Bool => "bool",
            _ if row.wit_verdict() => "result<u32, string>",
            _ => "string",
        };
        if result != want_result {
            wrong.push(format!("{name}: returns {result}, its row {want_result}"));
        }
    }
    assert!(wrong.is_empty(), "wit/agent-contract.wit disagrees with src/api/table.rs: {wrong:?}");
    let objects: BTreeSet<String> = OBJECTS
        .iter()
        .map(|o| o.name)
        .chain(agent_contract::api::table::HOST_OBJECTS.iter().map(|o| o.name))
        .map(|n| snake_case(n).replace('_', "-"))
        .collect();
    let unknown: Vec<_> = resources.iter().filter(|r| !objects.contains(*r)).collect();
    assert!(
        unknown.is_empty(),
        "wit/agent-contract.wit has resources that are not objects of src/api/table.rs: {unknown:?}"
    );
    // Every row for all hosts is reachable: as a function, through the object it makes, or as
    // the constructor of the object a host holds for it.
    let mut reachable: BTreeSet<String> = functions.keys().cloned().collect();
    for object in agent_contract::api::table::HOST_OBJECTS {
        if resources.contains(&snake_case(object.name).replace('_', "-")) {
            reachable.extend(object.makes.iter().map(|row| snake_case(row).replace('_', "-")));
        }
    }
    let missing: Vec<_> = OPERATIONS
        .iter()
        .filter(|o| o.hosts == Hosts::All)
        .filter(|o| !reachable.contains(&o.wit_name()))
        .filter(|o| match o.reply {
            agent_contract::api::table::Reply::Object(name) => !resources.contains(&snake_case(name).replace('_', "-")),
            agent_contract::api::table::Reply::Host(_) => false,
            _ => true,
        })
        .map(|o| o.name)
        .collect();
    assert!(missing.is_empty(), "rows of src/api/table.rs the component does not export: {missing:?}");
}

#[test]
fn safe_names_find_their_rows() {
    assert_eq!(find("safeParseAgentAction").map(|o| o.name), Some("parseAgentAction"));
    assert!(find("safeParseAgentActions").is_none(), "a batch has no safe form");
    assert!(find("parseAgentActionsJsonl").is_some());
    assert_eq!(snake_case("toOpenAIResponsesTools"), "to_openai_responses_tools");
}

#[test]
fn names_are_unique() {
    let mut seen = BTreeSet::new();
    for op in OPERATIONS {
        assert!(seen.insert(op.name), "{} is listed twice", op.name);
    }
}

/// A row's text twin takes the same arguments with JSON text in place of the value, reads the
/// same options, and answers a success with a verdict: what lets a host send a value's JSON to
/// it instead.
#[test]
fn text_twins_are_the_text_forms_of_their_rows() {
    use agent_contract::api::table::{Arg, Reply};
    let mut twins = 0;
    for op in OPERATIONS {
        let Some(name) = op.text_twin else { continue };
        twins += 1;
        let twin = find(name).unwrap_or_else(|| panic!("{}'s twin {name} is no row", op.name));
        let as_text: Vec<Arg> = op.args.iter().map(|a| if *a == Arg::Value { Arg::Text } else { *a }).collect();
        assert_eq!(twin.args, as_text.as_slice(), "{name}'s arguments");
        assert_eq!(twin.options, op.options, "{name}'s options");
        assert_eq!(twin.schema, op.schema, "{name}'s feature");
        assert!(matches!(twin.reply, Reply::Verdict | Reply::TextVerdict), "{name} answers a verdict");
        assert!(op.args.contains(&Arg::Value) && twin.text_twin.is_none(), "{name}");
    }
    assert_eq!(twins, 3);
}

/// Each object's methods in the TypeScript declarations are the table's, plus `free()` where
/// the object holds core memory.
#[test]
fn the_typescript_objects_have_the_table_methods() {
    let text = read("pkg/index.d.ts");
    for object in OBJECTS {
        let start = text
            .find(&format!("export interface {} ", object.name))
            .or_else(|| text.find(&format!("export interface {}<", object.name)))
            .unwrap_or_else(|| panic!("pkg/index.d.ts declares no interface {}", object.name));
        let body = &text[start..start + text[start..].find("\n}").unwrap()];
        let methods: BTreeSet<String> = body
            .lines()
            .skip(1)
            .map(|line| line.trim().trim_start_matches("readonly "))
            .filter_map(|line| line.split_once('(').map(|(name, _)| name.trim_end_matches('?').to_owned()))
            .filter(|name| name.chars().all(|c| c.is_ascii_alphanumeric()) && !name.is_empty())
            .filter(|name| name != "free")
            .collect();
        let expected: BTreeSet<String> = object.methods.iter().map(|m| m.to_string()).collect();
        compare(&format!("interface {} in pkg/index.d.ts", object.name), &methods, &expected);
    }
}

/// The host modules (`HOST_MODULES`): each host's module exports exactly the module's functions
/// and calls no operation but the rows it lists, each a row every host has.
#[test]
fn host_modules_export_their_functions_and_call_only_their_rows() {
    use agent_contract::api::table::HOST_MODULES;
    for module in HOST_MODULES {
        let rows: BTreeSet<String> = module.rows.iter().map(|r| (*r).to_owned()).collect();
        for row in module.rows {
            let op = find(row).unwrap_or_else(|| panic!("{} lists {row}, which is not a row", module.name));
            assert!(op.hosts == Hosts::All, "{row}: a row every host has");
        }
        let functions: BTreeSet<String> = module.functions.iter().map(|f| (*f).to_owned()).collect();

        // JS: `export function name` / `export const name`, and every `api.name(` it calls.
        let js = read(&format!("pkg/{}.mjs", module.name));
        let exported: BTreeSet<String> = js
            .lines()
            .filter_map(|l| l.strip_prefix("export function ").or_else(|| l.strip_prefix("export const ")))
            .map(|rest| rest.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').next().unwrap().to_owned())
            .collect();
        compare(&format!("pkg/{}.mjs exports", module.name), &exported, &functions);
        let code: String = js.lines().filter(|l| !l.starts_with("import ")).collect::<Vec<_>>().join("\n");
        let called: BTreeSet<String> = code
            .split("api.")
            .skip(1)
            .map(|rest| rest.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap().to_owned())
            .filter(|name| name != "ContractError")
            .map(|name| find(&name).map_or(name.clone(), |op| op.name.to_owned()))
            .collect();
        let extra: Vec<_> = called.difference(&rows).collect();
        assert!(extra.is_empty(), "pkg/{}.mjs calls {extra:?}, not in its rows", module.name);
        // The core's exports for host code it calls (`support(api).name`) are HOST_SUPPORT's.
        let support: BTreeSet<String> = HOST_SUPPORT.iter().map(|n| (*n).to_owned()).collect();
        let asked: BTreeSet<String> = code
            .split("support(api).")
            .skip(1)
            .map(|rest| rest.split(|c: char| !c.is_ascii_alphanumeric()).next().unwrap().to_owned())
            .collect();
        let extra: Vec<_> = asked.difference(&support).collect();
        assert!(extra.is_empty(), "pkg/{}.mjs asks the core for {extra:?}, not in HOST_SUPPORT", module.name);

        // Python: `__all__`'s functions, and every name it imports from the package.
        let py = read(&format!("py-host/src/agent_contract/{}.py", module.name));
        // What the modules pass and keep is the core's (`describe()`, `mcp`), held by neither.
        #[cfg(feature = "schema")]
        for (key, value) in agent_contract::tools::mcp::TOOL_OPTIONS {
            assert!(!js.contains(&format!("{key}: '{value}'")), "pkg/{}.mjs holds its own {key}", module.name);
            assert!(
                !py.contains(&format!("\"{key}\": \"{value}\"")),
                "agent_contract.{} holds its own {key}",
                module.name
            );
        }
        let start = py.find("__all__ = [").expect("__all__") + "__all__ = [".len();
        let end = start + py[start..].find(']').unwrap();
        let listed: BTreeSet<String> = py[start..end]
            .split(',')
            .map(|item| item.trim().trim_matches('"').to_owned())
            .filter(|n| n.starts_with(|c: char| c.is_ascii_lowercase()))
            .collect();
        let snake: BTreeSet<String> = module.functions.iter().map(|f| snake_case(f)).collect();
        compare(&format!("agent_contract.{}.__all__", module.name), &listed, &snake);
        let from = py.find("from . import (").expect("its imports") + "from . import (".len();
        let imported: BTreeSet<String> = py[from..from + py[from..].find(')').unwrap()]
            .split(',')
            .map(|item| item.split(" as ").next().unwrap().trim().to_owned())
            .filter(|n| n.starts_with(|c: char| c.is_ascii_lowercase()))
            .map(|n| n.strip_prefix("safe_").map_or(n.clone(), str::to_owned))
            .collect();
        let python_rows: BTreeSet<String> = module.rows.iter().map(|r| snake_case(r)).collect();
        let extra: Vec<_> = imported.difference(&python_rows).collect();
        assert!(extra.is_empty(), "agent_contract.{} calls {extra:?}, not in its rows", module.name);
        let support: BTreeSet<String> = HOST_SUPPORT.iter().map(|n| snake_case(n).replace('_', "-")).collect();
        let asked: BTreeSet<String> =
            py.split("_core(\"").skip(1).map(|rest| rest.split('"').next().unwrap().to_owned()).collect();
        let extra: Vec<_> = asked.difference(&support).collect();
        assert!(extra.is_empty(), "agent_contract.{} asks the core for {extra:?}, not in HOST_SUPPORT", module.name);
    }
}
