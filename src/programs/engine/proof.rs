//! P-18's inverted default for the lexical languages: a call is proven when a rule of the
//! language's table judged it (a writer or runner whose targets the engine computed), when it is
//! in the language's read-only table, when it computes a path value only (joins, identities), or
//! when the program defines it (its body is read where it stands). Any other call, and any module
//! loaded from outside the standard library, makes the findings unsure: the gates then judge every
//! guarded location the program or its arguments name as written.

use super::Engine;
use crate::programs::lex::Kind;

impl Engine<'_> {
    /// The names the program defines (`sub x`, `def x`, `def self.x`, `function M.x`).
    pub(super) fn collect_definitions(&mut self) {
        if !self.grammar.unknown_calls_unproven {
            return;
        }
        for (at, token) in self.tokens.iter().enumerate() {
            if self.spent() {
                return;
            }
            if token.kind != Kind::Ident || !self.grammar.definitions.contains(&token.text.as_str()) {
                continue;
            }
            // The last name of `a.b.c` or `self.x` after the keyword.
            let mut name = at + 1;
            while self.token(name + 1).is_some_and(|t| self.is_member(t))
                && self.token(name + 2).is_some_and(|t| t.kind == Kind::Ident)
            {
                name += 2;
            }
            if let Some(defined) = self.token(name).filter(|t| t.kind == Kind::Ident) {
                self.defined.insert(defined.text.clone());
            }
        }
    }

    /// A function the program defines in a way the grammar's [`Grammar::definitions`] keywords
    /// do not show (R's `show <- function(p) …`): its calls are read where it is defined.
    ///
    /// [`Grammar::definitions`]: super::Grammar::definitions
    pub fn define(&mut self, name: &str) {
        self.defined.insert(name.to_string());
    }

    /// Called for an identifier no rule judged: unsure when it is a call nothing proves.
    pub(super) fn prove_call(&mut self, at: usize) {
        if !self.grammar.unknown_calls_unproven || !self.findings.sure {
            return;
        }
        if self.loaded_module(at) {
            return;
        }
        if self.is_call_site(at) && (!self.proven(at) || !self.callbacks_proven(at)) {
            self.findings.sure = false;
        }
    }

    /// A call of something that is not a name (`t[k](…)`, `(f)(…)`, `'unlink'(…)`,
    /// `$f->(…)`, `f.(…)`, Perl's `&$f(…)`), at its `(`: a function the analysis does not know.
    pub(super) fn computed_call(&mut self, open: usize) {
        if !self.grammar.computed_calls || self.token(open).is_none_or(|paren| paren.line_start) {
            return;
        }
        let Some(before) = open.checked_sub(1).and_then(|b| self.token(b)) else { return };
        let grouped = || {
            // `(int)($x)`: a cast, not a call.
            let inside = open.checked_sub(2).and_then(|at| self.token(at));
            let cast = inside
                .is_some_and(|t| t.kind == Kind::Ident && self.grammar.keywords.contains(&t.text.as_str()))
                && open.checked_sub(3).and_then(|at| self.token(at)).is_some_and(|t| t.is("("));
            !cast
        };
        let by_reference = || {
            before.text.starts_with(|c| self.grammar.sigils.contains(c))
                && open.checked_sub(2).and_then(|at| self.token(at)).is_some_and(|t| t.is("&"))
        };
        let computed = match before.kind {
            Kind::Str { .. } => true,
            Kind::Punct => before.is("]") || before.is(")") && grouped() || self.is_member(before),
            Kind::Ident => by_reference(),
            Kind::Number => false,
        };
        if computed {
            self.findings.sure = false;
        }
    }

    /// The functions a read-only call is given to call (PHP's `array_map('trim', $a)`): each
    /// must be a closure written there or a name the tables prove; a writer's name, a variable or
    /// any other value is a call the analysis cannot see.
    fn callbacks_proven(&self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return true };
        let Some(&(_, positions)) = self.grammar.callbacks.iter().find(|(name, _)| *name == token.text) else {
            return true;
        };
        let args = self.arguments(at + 1);
        positions.iter().all(|&position| {
            let Some(arg) = args.iter().find(|arg| arg.position == Some(position)) else { return true };
            let tokens = self.tokens.get(arg.start..arg.end).unwrap_or_default();
            let closure = tokens
                .iter()
                .find(|t| !t.is_ident("static"))
                .is_some_and(|t| t.kind == Kind::Ident && self.grammar.definitions.contains(&t.text.as_str()));
            match tokens {
                _ if closure => true,
                [name] if name.is_str() => self.proven_name(name.text.trim_start_matches('\\'), None),
                _ => false,
            }
        })
    }

    /// `use File::Copy;`, `require 'digest'`: true when `at` is a loader (the findings are unsure
    /// unless the module is a library the language's table knows).
    fn loaded_module(&mut self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        if !self.grammar.loaders.contains(&token.text.as_str()) {
            return false;
        }
        if at > 0 && self.token(at - 1).is_some_and(|before| self.is_member(before)) {
            return false;
        }
        let mut module = String::new();
        let mut pos = at + 1;
        if self.token(pos).is_some_and(|t| t.is("(")) {
            pos += 1;
        }
        match self.token(pos) {
            Some(name) if name.is_str() => module.push_str(&name.text),
            Some(name) if name.kind == Kind::Ident => {
                // `File::Copy`: the names and separators up to the first other token.
                while let Some(part) = self.token(pos) {
                    if self.spent() {
                        break;
                    }
                    let separator = part.kind == Kind::Punct && part.is("::");
                    if (part.kind != Kind::Ident && !separator) || (pos > at + 1 && part.line_start) {
                        break;
                    }
                    module.push_str(&part.text);
                    pos += 1;
                }
            }
            _ => {}
        }
        if !self.grammar.libraries.contains(&module.as_str()) {
            self.findings.sure = false;
        }
        true
    }

    /// Whether identifier `at` is called: before `(` on its line, after a method member, or with
    /// arguments and no parentheses where the language allows it.
    fn is_call_site(&self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        let text = token.text.as_str();
        let grammar = self.grammar;
        if token.kind != Kind::Ident
            || grammar.keywords.contains(&text)
            || grammar.definitions.contains(&text)
            || text.starts_with(|c: char| c.is_ascii_digit())
        {
            return false;
        }
        let next_is_open = self.token(at + 1).is_some_and(|t| t.is("(") && !t.line_start);
        // PHP's `$w(…)`: a function whose name is computed.
        if text.starts_with(|c| grammar.sigils.contains(c)) {
            return grammar.variable_calls && next_is_open;
        }
        let before = at.checked_sub(1).and_then(|b| self.token(b));
        let after_member = before.is_some_and(|b| self.is_member(b));
        if before.is_some_and(|b| b.kind == Kind::Punct && grammar.method_members.contains(&b.text.as_str())) {
            return true;
        }
        // A definition's own name (`def x(`, `function x(`).
        if before.is_some_and(|b| b.kind == Kind::Ident && grammar.definitions.contains(&b.text.as_str())) {
            return false;
        }
        let Some(next) = self.token(at + 1).filter(|t| !t.line_start) else { return false };
        if next.is("(") {
            return true;
        }
        let argument = next.is_str()
            || next.kind == Kind::Number
            || next.kind == Kind::Ident && !grammar.keywords.contains(&next.text.as_str());
        grammar.calls_without_parentheses && !after_member && argument && !self.vars.contains_key(self.var_name(text))
    }

    /// A call the language's tables prove: read-only, a value computation, or defined here.
    fn proven(&self, at: usize) -> bool {
        let Some(token) = self.token(at) else { return false };
        let qualifier = at
            .checked_sub(2)
            .filter(|_| at.checked_sub(1).and_then(|b| self.token(b)).is_some_and(|b| self.is_member(b)))
            .and_then(|q| self.token(q))
            .filter(|q| q.kind == Kind::Ident)
            .map(|q| self.var_name(&q.text));
        self.proven_name(self.var_name(&token.text), qualifier)
    }

    /// A function named `name` (a method of `qualifier`) that the tables prove.
    fn proven_name(&self, name: &str, qualifier: Option<&str>) -> bool {
        if self.defined.contains(name) {
            return true;
        }
        // R's names hold dots (`read.csv`): an entry is the whole name before it is an owner's.
        let listed = |list: &[&str]| {
            list.iter().any(|entry| {
                *entry == name
                    || entry.rsplit_once('.').is_some_and(|(owner, last)| last == name && qualifier == Some(owner))
            })
        };
        let grammar = self.grammar;
        [
            grammar.read_only,
            grammar.joins,
            grammar.concats,
            grammar.identities,
            grammar.path_types,
            grammar.lowers,
            grammar.list_joins,
            grammar.formats,
            grammar.format_methods,
            grammar.globs,
        ]
        .iter()
        .any(|list| listed(list))
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::programs::{Language, judge};

    fn writes(language: Language, text: &str) -> Vec<String> {
        judge(language, Some(text), &[], Path::new("/repo")).written()
    }

    fn refused(language: Language, text: &str) -> bool {
        writes(language, text).iter().any(|w| crate::paths::names_guarded(w, crate::paths::Dialect::Program))
    }

    #[test]
    fn perl_unknown_calls_and_loaded_code_write_what_the_program_names() {
        for program in [
            "use IO::File; my $f = IO::File->new('docs/superpowers/plans/p.md', 'w'); print $f 1;",
            "use IO::File; my $f = IO::File->new('>docs/superpowers/plans/p.md');",
            "use Fcntl; sysopen(my $f, 'docs/superpowers/plans/p.md', O_WRONLY | O_APPEND);",
            "use File::Copy; move('/tmp/x', 'docs/superpowers/plans/p.md');",
            "my $p = 'docs/superpowers/plans/p.md'; Some::Writer->save($p);",
            "use Local::Thing; print 'docs/superpowers/plans/p.md';",
            "my $d = 'plans'; open(my $f, '>', \"docs/superpowers/$d/p.md\");",
            "open(my $f, '>', (glob('docs/superpowers/*lans/p.md'))[0]);",
            "my $x = shift; open(my $f, '>', \"openspec/changes/c/$x.md\");",
        ] {
            assert!(refused(Language::Perl, program), "{program}");
        }
        for program in [
            "open(my $f, '<', 'docs/superpowers/plans/p.md') or die; print <$f>; close $f;",
            "use Digest::SHA; print Digest::SHA->new(256)->addfile('docs/superpowers/plans/p.md')->hexdigest, \"\\n\";",
            "print -e 'docs/superpowers/plans/p.md' ? \"yes\\n\" : \"no\\n\";",
            "use IO::File; my $f = IO::File->new('docs/superpowers/plans/p.md', '<'); print <$f>;",
            "opendir(my $d, 'docs/superpowers/plans') or die; print join(' ', readdir($d)), \"\\n\";",
            "sub show { print @_ } show('docs/superpowers/plans/p.md');",
            "some_unknown_call('out.txt');",
            "my $x = shift; open(my $f, '>', \"out/$x.md\");",
        ] {
            assert!(!refused(Language::Perl, program), "{program}");
        }
    }

    #[test]
    fn ruby_unknown_calls_and_loaded_code_write_what_the_program_names() {
        for program in [
            "IO.copy_stream('/tmp/x', 'docs/superpowers/plans/p.md')",
            "Kernel.open('docs/superpowers/plans/p.md', 'w') { |f| f.puts 'x' }",
            "require 'fileutils'\nFileUtils.cp('/tmp/x', 'docs/superpowers/plans/p.md')",
            "Logger.new('docs/superpowers/plans/p.md').info('x')",
            "require_relative 'helper'\nputs 'docs/superpowers/plans/p.md'",
            "d = 'plans'\nFile.write(\"docs/superpowers/#{d}/p.md\", 'x')",
            "File.delete(Dir.glob('docs/superpowers/*lans/p.md')[0])",
        ] {
            assert!(refused(Language::Ruby, program), "{program}");
        }
        assert_eq!(writes(Language::Ruby, "Kernel.open('|touch docs/superpowers/plans/p.md')"), Vec::<String>::new());
        for program in [
            "puts File.read('docs/superpowers/plans/p.md')",
            "require 'digest'\nputs Digest::SHA256.file('docs/superpowers/plans/p.md').hexdigest",
            "puts File.exist?('docs/superpowers/plans/p.md')",
            "puts Dir.children('docs/superpowers/plans').sort",
            "File.readlines('docs/superpowers/plans/p.md').each { |l| puts l.strip }",
            "def show(p) puts p end\nshow('docs/superpowers/plans/p.md')",
        ] {
            assert!(!refused(Language::Ruby, program), "{program}");
        }
    }

    #[test]
    fn a_pipe_opened_by_ruby_is_a_command() {
        let verdict = judge(Language::Ruby, Some("open('|touch x.md')"), &[], Path::new("/repo"));
        assert_eq!(verdict.commands, ["touch x.md"]);
    }

    #[test]
    fn php_unknown_calls_and_included_code_write_what_the_program_names() {
        for program in [
            "file_put_contents('docs/superpowers/plans/p.md', 'x', FILE_APPEND);",
            "rename('/tmp/x', 'docs/superpowers/plans/p.md');",
            "$f = fopen(implode(DIRECTORY_SEPARATOR, ['docs', 'superpowers', 'plans', 'p.md']), 'a');",
            "include 'helper.php'; echo 'docs/superpowers/plans/p.md';",
            "$w = 'file_put' . '_contents'; $w('docs/superpowers/plans/p.md', 'x');",
            "unknown_writer('docs/superpowers/plans/p.md');",
        ] {
            assert!(refused(Language::Php, program), "{program}");
        }
        for program in [
            "echo file_get_contents('docs/superpowers/plans/p.md');",
            "echo hash_file('sha256', 'docs/superpowers/plans/p.md'), \"\\n\";",
            "echo md5_file('docs/superpowers/plans/p.md');",
            "var_dump(file_exists('docs/superpowers/plans/p.md'));",
            "function show($p) { echo $p; } show('docs/superpowers/plans/p.md');",
        ] {
            assert!(!refused(Language::Php, program), "{program}");
        }
    }

    #[test]
    fn lua_unknown_calls_write_what_the_program_names() {
        for program in [
            "local f = assert(io.open('docs/superpowers/plans/p.md', 'a'))\nf:write('x')",
            "os.remove(table.concat({'docs', 'superpowers', 'plans', 'p.md'}, '/'))",
            "os.rename('/tmp/x', string.lower('DOCS/SUPERPOWERS/PLANS/P.MD'))",
            "local d = 'plans'\nos.remove(string.format('docs/superpowers/%s/p.md', d))",
            "lfs_touch('docs/superpowers/plans/p.md')",
        ] {
            assert!(refused(Language::Lua, program), "{program}");
        }
        for program in [
            "print(assert(io.open('docs/superpowers/plans/p.md')):read('a'))",
            "for line in io.lines('docs/superpowers/plans/p.md') do print(line) end",
            "local function show(p) print(p) end\nshow('docs/superpowers/plans/p.md')",
        ] {
            assert!(!refused(Language::Lua, program), "{program}");
        }
    }

    #[test]
    fn tcl_unknown_commands_write_what_the_program_names() {
        for program in [
            "set f [open docs/superpowers/plans/p.md a]",
            "file copy -force /tmp/x docs/superpowers/plans/p.md",
            "file rename /tmp/x docs/superpowers/plans/p.md",
            "cd docs/superpowers/plans\nfile delete p.md",
            "set d plans\nset f [open \"docs/superpowers/$d/p.md\" a]",
            "file delete [lindex [glob {.superpowers/sd*/p/progress.md}] 0]",
            "mywriter docs/superpowers/plans/p.md",
        ] {
            assert!(refused(Language::Tcl, program), "{program}");
        }
        for program in [
            "set f [open docs/superpowers/plans/p.md]\nputs [read $f]\nclose $f",
            "puts [file exists docs/superpowers/plans/p.md]",
            "proc show {p} {puts $p}\nshow docs/superpowers/plans/p.md",
            "if {[file exists docs/superpowers/plans/p.md]} {puts yes}",
        ] {
            assert!(!refused(Language::Tcl, program), "{program}");
        }
    }

    #[test]
    fn r_unknown_calls_packages_and_rebound_names_write_what_the_program_names() {
        for program in [
            "writeBin('x', 'docs/superpowers/plans/p.md')",
            "library(fs)\nprint('openspec/changes/c/approval.md')",
            "print(fs::basename('docs/superpowers/plans/p.md'))",
            "base:::print('docs/superpowers/plans/p.md')",
            "cat <- writeBin\ncat('x', 'docs/superpowers/plans/p.md')",
            "o <- list(print = writeBin)\no$print('x', 'docs/superpowers/plans/p.md')",
            "`writeBin`('x', 'docs/superpowers/plans/p.md')",
            "\"writeBin\"('x', 'docs/superpowers/plans/p.md')",
            "list(writeBin)[[1]]('x', 'docs/superpowers/plans/p.md')",
            "digest <- 'fs'\nlibrary(digest, character.only = TRUE)\nprint('docs/superpowers/plans/p.md')",
            "lapply('docs/superpowers/plans/p.md', file.remove)",
            "writeLines('x', sprintf('docs/superpowers/%s/p.md', 'plans'))",
            "show <- function(p) writeLines('x', p)\nshow('docs/superpowers/plans/p.md')",
            "cat('x', file = 'openspec/changes/c/approval.md')",
        ] {
            assert!(refused(Language::R, program), "{program}");
        }
        let piped = judge(Language::R, Some("readLines(pipe('rm x.md'))"), &[], Path::new("/repo"));
        assert_eq!(piped.commands, ["rm x.md"]);
        for program in [
            "print(readLines('docs/superpowers/plans/p.md'))",
            "cat(readLines('docs/superpowers/plans/p.md'), sep = '\\n')",
            "cat(tools::md5sum('docs/superpowers/plans/p.md'))",
            "library(digest)\nprint(digest::digest('docs/superpowers/plans/p.md', file = TRUE))",
            "print(list.files('docs/superpowers/plans', pattern = '\\\\.md$'))",
            "if (file.exists('openspec/changes/c/approval.md')) cat(nchar(paste0('a', 'b')))",
            "x <- readLines('docs/superpowers/plans/p.md')\nprint(length(grep('Spec', x)))",
            "show <- function(p) print(basename(p))\nshow('docs/superpowers/plans/p.md')",
            "writeLines(readLines('docs/superpowers/plans/p.md'), '/tmp/copy.md')",
        ] {
            assert!(!refused(Language::R, program), "{program}");
        }
    }

    #[test]
    fn sqlite_unknown_dot_commands_and_functions_write_what_the_program_names() {
        for program in [
            ".load ./ext\nselect * from t where name = 'docs/superpowers/plans/p.md';",
            ".cd docs/superpowers/plans\n.output p.md",
            ".read more.sql\nselect 'openspec/changes/c/approval.md';",
            "select load_extension('./ext'), 'docs/superpowers/plans/p.md';",
            "select frobnicate('docs/superpowers/plans/p.md');",
            "SELECT WriteFile('docs/superpowers/plans/p.md', x) FROM t;",
            "create virtual table z using zipfile('docs/superpowers/plans/p.zip');",
            ".log openspec/changes/c/approval.md",
            "vacuum into 'openspec/changes/c/approval.md';",
        ] {
            assert!(refused(Language::Sqlite, program), "{program}");
        }
        for program in [
            ".headers on\n.mode csv\nselect readfile('docs/superpowers/plans/p.md');",
            "select sha3(readfile('docs/superpowers/plans/p.md'), 256);",
            "select name from fsdir('docs/superpowers/plans') order by name;",
            ".tables\n.schema\nSELECT COUNT(*), upper(name) FROM plans WHERE name LIKE 'docs/superpowers/plans/%';",
            "create table t(name varchar(10)); insert into t(name) values ('docs/superpowers/plans/p.md');",
            ".dump\n.quit",
        ] {
            assert!(!refused(Language::Sqlite, program), "{program}");
        }
    }

    #[test]
    fn applescript_words_outside_the_read_only_table_write_what_the_script_names() {
        for program in [
            "tell application \"Terminal\" to do script \"echo x > docs/superpowers/plans/p.md\"",
            "set s to \"docs/superpowers/plans/p.md\"\nrun script s",
            "tell application \"TextEdit\" to get name of document \"docs/superpowers/plans/p.md\"",
            "tell application \"Finder\" to set name of file \"docs/superpowers/plans/p.md\" to \"q.md\"",
            "tell application \"System Events\" to keystroke \"docs/superpowers/plans/p.md\"",
            "tell application \"Finder\" to delete folder \"docs/superpowers/plans\"",
            "set p to \"docs/superpowers/plans/p.md\"\ntell application \"Finder\" to delete (POSIX file p)",
            "set f to open for access POSIX file \"openspec/changes/c/approval.md\" with write permission",
        ] {
            assert!(refused(Language::AppleScript, program), "{program}");
        }
        let shouted = judge(Language::AppleScript, Some("DO SHELL SCRIPT \"touch x.md\""), &[], Path::new("/repo"));
        assert_eq!(shouted.commands, ["touch x.md"]);
        for program in [
            "display dialog (read POSIX file \"docs/superpowers/plans/p.md\")",
            "set p to \"docs/superpowers/plans/p.md\"\nset t to read (POSIX file p)\nreturn t",
            "tell application \"Finder\" to get name of every file of folder (POSIX file \"docs/superpowers/plans\")",
            "on show(p)\ndisplay dialog p\nend show\nshow(\"docs/superpowers/plans/p.md\")",
            "return POSIX path of \"docs/superpowers/plans/p.md\"",
            "do shell script \"shasum -a 256 \" & quoted form of \"docs/superpowers/plans/p.md\"",
        ] {
            assert!(!refused(Language::AppleScript, program), "{program}");
        }
    }

    #[test]
    fn an_unknown_call_in_a_program_naming_nothing_guarded_is_not_judged() {
        let languages = [Language::Perl, Language::Ruby, Language::Php, Language::Lua, Language::Tcl];
        for language in languages.into_iter().chain([Language::R, Language::AppleScript, Language::Sqlite]) {
            assert!(writes(language, "frobnicate('out.txt')").is_empty(), "{language:?}");
        }
    }

    #[test]
    fn a_long_run_of_loaders_stays_within_the_work_budget() {
        // Each `use` reads the names after it: quadratic without the budget.
        let loaders = "use ".repeat(60_000);
        assert!(refused(Language::Perl, &format!("{loaders}'docs/superpowers/plans/p.md'")));
        assert!(!refused(Language::Perl, &loaders));
    }

    #[test]
    fn awk_unknown_functions_and_included_code_write_what_the_program_names() {
        for program in [
            "BEGIN { f = \"docs/superpowers/plans/p.md\"; helper(f) }",
            "@include \"lib.awk\"\nBEGIN { print \"docs/superpowers/plans/p.md\" }",
            "BEGIN { print \"x\" > \"docs/superpowers/plans/p.md\" }",
            "BEGIN { d = \"plans\"; print \"x\" >> (\"docs/superpowers/\" d \"/p.md\") }",
        ] {
            assert!(refused(Language::Awk, program), "{program}");
        }
        for program in [
            "{ n += length($0) } END { print n, \"docs/superpowers/plans/p.md\" }",
            "/- \\[ \\]/ { print FILENAME \": \" toupper(substr($0, 1, 10)) }",
            "function count(s) { return gsub(/x/, \"\", s) }\n{ print count($0), \"docs/superpowers/plans/p.md\" }",
            "BEGIN { while ((getline line < \"docs/superpowers/plans/p.md\") > 0) n++; close(\"docs/superpowers/plans/p.md\"); print n }",
        ] {
            assert!(!refused(Language::Awk, program), "{program}");
        }
    }
}
