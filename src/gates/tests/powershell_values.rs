//! P-18 for PowerShell values the walk binds or computes: splats, `Invoke-Expression` and
//! `[scriptblock]::Create` of computed text, the `-f` operator, what a pipeline binds to a
//! cmdlet's path and `$PSDefaultParameterValues`. Each write spelling is refused with the text the
//! plain write gets; the same spellings that only read stay allowed.

use super::*;

fn pwsh(command: &str) -> Args {
    Args::default().with("command", command)
}

/// Change `c` with its design approved: a plan written by a command needs a Spec line the gate
/// cannot see, an approval.md is only /approve's.
fn repo() -> Repo {
    let repo = Repo::new();
    repo.change("c").approve_design("c");
    repo.write("docs/superpowers/plans/x.md", "**Spec:** openspec/changes/c/design.md\n");
    repo
}

fn assert_refused_as_plain(repo: &Repo, plain: &str, spellings: &[&str]) {
    let expected = check(repo, "pwsh", &pwsh(plain));
    assert!(expected.is_some(), "{plain}");
    let wrong: Vec<String> = spellings
        .iter()
        .map(|spelling| (spelling, check(repo, "pwsh", &pwsh(spelling))))
        .filter(|(_, verdict)| *verdict != expected)
        .map(|(spelling, verdict)| format!("{spelling} -> {verdict:?}"))
        .collect();
    assert!(wrong.is_empty(), "not refused as `{plain}` ({expected:?}):\n{}", wrong.join("\n"));
}

fn assert_allowed(repo: &Repo, commands: &[&str]) {
    let wrong: Vec<String> = commands
        .iter()
        .filter_map(|command| check(repo, "pwsh", &pwsh(command)).map(|denial| format!("{command} -> {denial}")))
        .collect();
    assert!(wrong.is_empty(), "refused:\n{}", wrong.join("\n"));
}

#[test]
fn a_splat_binds_its_entries_by_name_and_its_items_by_position() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "$p = @{Path='docs/superpowers/plans/x.md'; Value='x'}; Set-Content @p",
            "$p = @{ LiteralPath = 'docs/superpowers/plans/x.md' }\nSet-Content @p -Value x",
            "$a = 'docs/superpowers/plans/x.md','x'; Set-Content @a",
            "$a = @('docs/superpowers/plans/x.md', 'x'); sc @a",
            "$d = 'docs/superpowers/plans'; $p = @{Path=\"$d/x.md\"}; Set-Content @p x",
            // An entry the walk cannot compute may be any guarded location the call names.
            "$p = @{Path=$unknown; Value='docs/superpowers/plans/x.md'}; Set-Content @p",
            "Set-Content @unknown docs/superpowers/plans/x.md",
            "$p = [ordered]@{Path='docs/superpowers/plans/x.md'; Value='x'}; Set-Content @p",
            // A -WhatIf the walk cannot compute may be off.
            "$p = @{Path='docs/superpowers/plans/x.md'; WhatIf=$maybe}; Set-Content @p -Value x",
            "Set-Content docs/superpowers/plans/x.md x -WhatIf:$maybe",
            "$p = @{Path='docs/superpowers/plans/x.md'}; $q = $p; Set-Content @q -Value x",
            // Entries given after the literal.
            "$p = @{Value='x'}; $p.Path = 'docs/superpowers/plans/x.md'; Set-Content @p",
            "$p = @{Value='x'}; $p['Path'] = 'docs/superpowers/plans/x.md'; Set-Content @p",
            "$p = @{}; $p.Add('Path', 'docs/superpowers/plans/x.md'); Set-Content @p -Value x",
            "$p = @{Value='x'}; $p += @{Path='docs/superpowers/plans/x.md'}; Set-Content @p",
            // In a block that may not run, the earlier entries stay possible.
            "$p = @{Path='docs/superpowers/plans/x.md'}; if ($c) { $p = @{Path='notes.md'} }; Set-Content @p -Value x",
        ],
    );
    assert_refused_as_plain(
        &repo,
        "Remove-Item openspec/changes/c/approval.md",
        &["$p = @{Path='openspec/changes/c/approval.md'; Force=$true}; Remove-Item @p"],
    );
}

#[test]
fn a_splat_that_reads_stays_allowed() {
    let repo = repo();
    assert_allowed(
        &repo,
        &[
            "$p=@{Path='docs/superpowers/plans/x.md'}; Get-Content @p",
            "$a = 'docs/superpowers/plans/x.md'; Get-FileHash @a",
            "$p = @{Path='notes.md'; Value='docs/superpowers/plans/x.md'}; Set-Content @p",
            "$p = @{Path='src/a.txt'; Value='x'}; Set-Content @p",
            "$p = @{Path='docs/superpowers/plans/x.md'}; $p = @{Path='notes.md'}; Set-Content @p -Value x",
            "$p = @{Path='docs/superpowers/plans/x.md'; WhatIf=$true}; Set-Content @p -Value x",
            "$p = @{Path='docs/superpowers/plans/x.md'}; $q = $p; Get-Content @q",
            "$p = @{Path='notes.md'}; $q = $p; Set-Content @q -Value (Get-Content docs/superpowers/plans/x.md)",
        ],
    );
}

#[test]
fn invoke_expression_and_scriptblock_create_of_computed_text_run_that_text() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "iex ('Set-Content ' + 'docs/superpowers/plans/x.md' + ' x')",
            "Invoke-Expression -Command ('Set-Content docs/superpowers/' + 'plans/x.md x')",
            "$c = 'Set-Content docs/superpowers/plans/x.md x'; iex $c",
            "$f = 'docs/superpowers/plans/x.md'; iex \"Set-Content $f x\"",
            "& ([scriptblock]::Create('Set-Content docs/superpowers/plans/x.md x'))",
            "[scriptblock]::Create('Set-Content docs/superpowers/plans/x.md x').Invoke()",
            "$b = [ScriptBlock]::Create('Set-Content ' + 'docs/superpowers/plans/x.md x'); & $b",
            "$ExecutionContext.InvokeCommand.InvokeScript('Set-Content docs/superpowers/plans/x.md x')",
            "& $ExecutionContext.InvokeCommand.NewScriptBlock('Set-Content docs/superpowers/plans/x.md x')",
            "[powershell]::Create().AddScript('Set-Content docs/superpowers/plans/x.md x').Invoke()",
            // Text the walk cannot compute may write any guarded location the call names.
            "iex ($prefix + ' docs/superpowers/plans/x.md x')",
            "iex \"$verb docs/superpowers/plans/x.md x\"",
            "iex $unknown; Get-Content docs/superpowers/plans/x.md",
            "Get-Content docs/superpowers/plans/x.md; Invoke-Expression (Get-Content script.ps1 -Raw)",
        ],
    );
    assert_refused_as_plain(
        &repo,
        "Remove-Item openspec/changes/c/approval.md",
        &["$f = 'openspec/changes/c/approval.md'; iex \"Remove-Item $f\""],
    );
}

#[test]
fn invoke_expression_of_text_that_reads_stays_allowed() {
    let repo = repo();
    assert_allowed(
        &repo,
        &[
            "iex 'Get-Content docs/superpowers/plans/x.md'",
            "iex ('Get-Content ' + 'docs/superpowers/plans/x.md')",
            "$f = 'docs/superpowers/plans/x.md'; iex \"Get-FileHash $f\"",
            "& ([scriptblock]::Create('Get-Content docs/superpowers/plans/x.md'))",
            "[powershell]::Create().AddScript('Get-Content docs/superpowers/plans/x.md').Invoke()",
            "iex ('Set-Content ' + 'notes.md x')",
            // Text the walk cannot compute in a call that names nothing guarded is not the gates'.
            "iex $unknown",
            "Set-Content @unknown",
        ],
    );
}

#[test]
fn the_format_operator_and_string_case_methods_are_computed() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "Set-Content ('docs/{0}/plans/x.md' -f 'superpowers') x",
            "$p = 'docs/{0}/{1}/x.md' -f 'superpowers', 'plans'; Set-Content $p x",
            "$p = '{0}/{1}' -f 'docs/superpowers/plans', 'x.md'; Set-Content -Path $p -Value x",
            "$p = 'docs/superpowers/plans/{0}' -F $name; Set-Content $p x",
            "Get-Content docs/superpowers/plans/x.md; Set-Content ('{0}/{1}' -f $dir, $name) x",
            // Case changed and blanks trimmed by a string method, in an expression or in `$(…)`.
            "$x = 'SUPERPOWERS'; Set-Content \"docs/$($x.ToLower())/plans/x.md\" x",
            "Set-Content ('DOCS/SUPERPOWERS/PLANS/X.MD'.ToLower()) x",
            "$d = ' docs/superpowers/plans '; Set-Content \"$($d.Trim())/x.md\" x",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "('{0}' -f 'docs/superpowers/plans/x.md') | Write-Output",
            "Get-Content ('docs/{0}/plans/x.md' -f 'superpowers')",
            "Set-Content ('notes/{0}.md' -f 'superpowers') x",
            "Set-Content ('{0}/{1}' -f $dir, $name) x",
            "$x = 'NOTES'; Set-Content \"$($x.ToLower()).md\" (Get-Content docs/superpowers/plans/x.md)",
        ],
    );
}

#[test]
fn a_path_piped_into_a_cmdlet_that_writes_is_its_target() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "'docs/superpowers/plans/x.md' | Set-Content -Value x",
            "Get-ChildItem docs/superpowers/plans | Set-Content -Value x",
            "Get-ChildItem docs/superpowers/plans | Clear-Content",
            "Get-Item docs/superpowers/plans/x.md | Add-Content -Value x",
            "$f = 'docs/superpowers/plans/x.md'; $f | Set-Content -Value x",
        ],
    );
    assert_refused_as_plain(
        &repo,
        "Remove-Item openspec/changes/c/approval.md",
        &[
            "Get-Item openspec/changes/c/approval.md | Remove-Item",
            "'openspec/changes/c/approval.md' | rm",
            // What a filter passes on the walk does not compute: any guarded location the call names.
            "Get-ChildItem openspec/changes/c | Where-Object Name -eq approval.md | Remove-Item",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "'docs/superpowers/plans/x.md' | Get-Content",
            "Get-ChildItem docs/superpowers/plans | Select-Object Name",
            "Get-ChildItem docs/superpowers/plans | Out-File notes.txt",
            "Get-Content docs/superpowers/plans/x.md | Set-Content notes.md",
            "'docs/superpowers/plans/x.md' | Out-File notes.txt",
            "Get-Item docs/superpowers/plans/x.md | Copy-Item -Destination /tmp/x.md",
            "Get-ChildItem docs/superpowers/plans -Filter *.md | Where-Object Length -gt 0 | Sort-Object Name",
        ],
    );
}

#[test]
fn default_parameter_values_bind_where_the_call_leaves_the_parameter() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "$PSDefaultParameterValues['Set-Content:Path'] = 'docs/superpowers/plans/x.md'; Set-Content -Value x",
            "$PSDefaultParameterValues = @{'*:Path'='docs/superpowers/plans/x.md'}; Set-Content -Value x",
            "$PSDefaultParameterValues.Add('Set-Content:Path', 'docs/superpowers/plans/x.md'); Set-Content -Value x",
            "$PSDefaultParameterValues['*-Content:Path'] = \"docs/superpowers/plans/$n\"; sc -Value x",
            // A key the walk cannot compute may be any parameter; `Disabled` binds none.
            "$PSDefaultParameterValues[$key] = 'docs/superpowers/plans/x.md'; Set-Content -Value x",
            "$PSDefaultParameterValues['Disabled'] = $true; 'docs/superpowers/plans/x.md' | Set-Content -Value x",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "$PSDefaultParameterValues['Get-Content:Path'] = 'docs/superpowers/plans/x.md'; Get-Content",
            "$PSDefaultParameterValues['*:Path'] = 'docs/superpowers/plans/x.md'; Set-Content notes.md x",
            "$PSDefaultParameterValues['Out-File:Encoding'] = 'utf8'; Get-Content docs/superpowers/plans/x.md",
            "$PSDefaultParameterValues['*:Path'] = 'docs/superpowers/plans/x.md'; $PSDefaultParameterValues = @{}; sc -Value x",
        ],
    );
}

#[test]
fn a_persistent_pwsh_keeps_hashtables_and_defaults_between_calls() {
    let repo = repo();
    let shell = format!("powershell-values:{}", std::process::id());
    let in_shell = |command: &str| {
        check_tool_call_in("pwsh", &pwsh(command), || repo.root.clone(), || Some(shell.clone()))
            .map(|denial| denial.to_string())
    };
    let plain = check(&repo, "pwsh", &pwsh("Set-Content docs/superpowers/plans/x.md x"));
    assert_eq!(in_shell("$p = @{Path='docs/superpowers/plans/x.md'}"), None);
    assert_eq!(in_shell("Get-Content @p"), None);
    assert_eq!(in_shell("Set-Content @p -Value x"), plain);
    assert_eq!(in_shell("$PSDefaultParameterValues['Set-Content:Path'] = 'docs/superpowers/plans/x.md'"), None);
    assert_eq!(in_shell("Set-Content -Value x"), plain);
    assert_eq!(in_shell("Set-Content notes.md x"), None);
    // An advanced function's parameter the call leaves unbound takes the default too.
    assert_eq!(in_shell("function Save { [CmdletBinding()] param($Target) Set-Content -Path $Target -Value x }"), None);
    assert_eq!(in_shell("Save -Target notes.md"), None);
    assert_eq!(in_shell("$PSDefaultParameterValues['Save:Target'] = 'docs/superpowers/plans/x.md'"), None);
    assert_eq!(in_shell("Save"), plain);
    assert_eq!(in_shell("Save -Target notes.md"), None);
    assert!(crate::analysis::persistent::drop_shell(&shell));
}

#[test]
fn what_was_already_right_stays_right() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "$p = 'Set-Content docs/superpowers/plans/x.md x'; iex $p",
            "powershell -Command 'Set-Content docs/superpowers/plans/x.md x'",
            "Start-Process pwsh -ArgumentList '-c', 'Set-Content docs/superpowers/plans/x.md x'",
            "Start-Process bash -ArgumentList '-c \"echo x > docs/superpowers/plans/x.md\"'",
            // Each item passed whole (a PowerShell that quotes them) writes too.
            "Start-Process bash -ArgumentList '-c', 'echo x > docs/superpowers/plans/x.md'",
            "Start-Process -FilePath cmd -ArgumentList '/c', 'echo x > docs\\superpowers\\plans\\x.md'",
            "Start-Process git -RedirectStandardOutput docs/superpowers/plans/x.md",
        ],
    );
    assert_refused_as_plain(
        &repo,
        "Remove-Item openspec/changes/c/approval.md",
        &["Get-Item openspec/changes/c/approval.md | Remove-Item"],
    );
    assert_allowed(
        &repo,
        &[
            "Copy-Item openspec/changes/c/approval.md /tmp/backup.md",
            "Compress-Archive docs/superpowers/plans /tmp/p.zip",
            "Start-Process pwsh -ArgumentList '-c', 'Get-Content docs/superpowers/plans/x.md'",
            "Start-Process bash -ArgumentList '-c', 'cat docs/superpowers/plans/x.md' -Wait",
            "Start-Process git -ArgumentList 'diff', 'docs/superpowers/plans/x.md' -NoNewWindow",
        ],
    );
}

#[test]
fn a_sure_pop_location_returns_where_push_location_left() {
    let repo = repo();
    assert_allowed(
        &repo,
        &[
            "Push-Location docs/superpowers; Pop-Location; Set-Content p.md x",
            "Push-Location docs/superpowers/plans; Get-ChildItem; Pop-Location; Set-Content notes.md x",
            "pushd openspec/changes/c; popd; Set-Content approval.md.bak x",
        ],
    );
    // A pop that may not run, or that follows a push that may not have run, is not sure.
    let plain = "Set-Content docs/superpowers/plans/p.md x";
    assert_refused_as_plain(
        &repo,
        plain,
        &[
            "Push-Location docs/superpowers/plans; Get-Item missing && Pop-Location; Set-Content p.md x",
            "if ($c) { Push-Location docs/superpowers/plans }; Pop-Location; Set-Content p.md x",
            "Push-Location docs/superpowers/plans; iex 'Pop-Location'; Set-Content p.md x",
            "Push-Location docs/superpowers/plans; Push-Location -StackName s src; Pop-Location; Set-Content p.md x",
            "Push-Location docs/superpowers/plans; Push-Location src; Pop-Location; Set-Content p.md x",
        ],
    );
}

#[test]
fn an_unknown_cmdlet_is_judged_by_the_guarded_names_in_its_texts() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "Invoke-Remote -Script 'Set-Content docs/superpowers/plans/x.md x'",
            "& $ExecutionContext.InvokeCommand.NewScriptBlock('Set-Content docs/superpowers/plans/x.md x')",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "Write-Host 'next: Set-Content docs/superpowers/plans/x.md'",
            "Select-String -Path docs/superpowers/plans/x.md -Pattern 'Spec'",
            "Invoke-Remote -Script 'Set-Content notes.md x'",
        ],
    );
}

#[test]
fn the_location_as_a_value_is_where_the_call_runs() {
    let repo = repo();
    let in_plans = |command: &str| {
        let args = pwsh(command).with("workdir", "docs/superpowers/plans");
        check(&repo, "pwsh", &args)
    };
    let plain = in_plans("Set-Content x.md x");
    assert!(plain.is_some());
    for write in [
        "Set-Content $PWD.Path/x.md x",
        "Set-Content \"$($PWD.Path)/x.md\" x",
        "$here = Get-Location; Set-Content $here/x.md x",
        "$here = (Get-Location).Path; Set-Content (Join-Path $here x.md) x",
    ] {
        assert_eq!(in_plans(write), plain, "{write}");
    }
    for read in ["Get-Content $PWD.Path/x.md", "$here = Get-Location; Get-ChildItem $here"] {
        assert_eq!(in_plans(read), None, "{read}");
    }
    // Elsewhere, the same spellings write nothing guarded, in a call that names a plan.
    assert_allowed(
        &repo,
        &["$here = Get-Location; Set-Content $here/notes.md (Get-Content docs/superpowers/plans/x.md)"],
    );
}

#[test]
fn wildcards_and_locations_the_walk_cannot_compute_reach_the_guarded_folders() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "Set-Content docs/*/plans/x.md x",
            "Set-Content docs/superpowers/pl*/x.md x",
            "Set-Location docs/superpowers/pl*; Set-Content x.md x",
            // A wildcard matches where the walk went.
            "Set-Location docs/superpowers; Set-Location pl*; Set-Content x.md x",
            "Set-Location docs/superpowers; Set-Content pl*/x.md x",
            "cd docs/*/plans; Set-Content x.md x",
            "Push-Location docs/superpowers/pl?ns; Set-Content x.md x",
            "Set-Location $env:PLANS; Set-Content x.md x; Get-Content docs/superpowers/plans/x.md",
            "Set-Location (Get-ChildItem docs/superpowers -Directory); Set-Content x.md x; Get-Content docs/superpowers/plans/x.md",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "Get-Content docs/*/plans/x.md",
            "Set-Location docs/superpowers/pl*; Get-Content x.md",
            "Set-Location docs/superpowers; Get-Content pl*/x.md",
            "Set-Location src; Set-Content pl*/x.md x; Get-Content docs/superpowers/plans/x.md",
            "Set-Location -LiteralPath docs/superpowers/pl*; Set-Content x.md x",
            "Set-Location src; Set-Content x.md x; Get-Content docs/superpowers/plans/x.md",
            "Set-Content src/*.txt x; Get-Content docs/superpowers/plans/x.md",
        ],
    );
}

#[test]
fn a_script_file_is_read_and_walked_whatever_runs_it() {
    let repo = repo();
    std::fs::create_dir_all(repo.path("tools")).unwrap();
    std::fs::write(repo.path("tools/w.ps1"), "\u{feff}Set-Content -Path docs/superpowers/plans/x.md -Value y\n")
        .unwrap();
    std::fs::write(repo.path("tools/r.ps1"), "Get-Content docs/superpowers/plans/x.md | Measure-Object\n").unwrap();
    let plain = check(&repo, "pwsh", &pwsh("Set-Content -Path docs/superpowers/plans/x.md -Value y"));
    assert!(plain.is_some());
    for line in ["./tools/w.ps1", "& ./tools/w.ps1", ". ./tools/w.ps1", "& 'tools\\w.ps1'", "pwsh -File tools/w.ps1"] {
        assert_eq!(check(&repo, "pwsh", &pwsh(line)), plain, "{line}");
    }
    for line in ["pwsh -File tools/w.ps1", "pwsh -NoProfile -File ./tools/w.ps1", "pwsh tools/w.ps1"] {
        assert_eq!(check(&repo, "bash", &Args::default().with("command", line)), plain, "bash: {line}");
    }
    assert!(
        check(&repo, "bash", &Args::default().with("command", "pwsh -File tools/gone.ps1 docs/superpowers/plans/x.md"))
            .is_some()
    );
    assert_allowed(
        &repo,
        &["./tools/r.ps1", "& ./tools/r.ps1", "pwsh -File tools/r.ps1", "./tools/gone.ps1 src/x.txt"],
    );
    assert_eq!(check(&repo, "bash", &Args::default().with("command", "pwsh -File tools/r.ps1")), None);
}

/// A script file's `param()` block binds the call's arguments by name (or a prefix of it) and by
/// position, and its defaults where the call gives none: what the script does with them is judged
/// as for a function's parameters; an argument no parameter takes falls back to the call's words.
#[test]
fn a_script_files_param_block_binds_the_calls_arguments() {
    let repo = repo();
    std::fs::create_dir_all(repo.path("tools")).unwrap();
    let write = "[CmdletBinding()]\nparam(\n    [string]$Target,\n    [string]$Value = 'y'\n)\nSet-Content -Path $Target -Value $Value\n";
    std::fs::write(repo.path("tools/w.ps1"), write).unwrap();
    std::fs::write(repo.path("tools/d.ps1"), "param($Target = 'docs/superpowers/plans/x.md')\nSet-Content $Target y\n")
        .unwrap();
    std::fs::write(repo.path("tools/r.ps1"), "param($Target)\nGet-Content $Target | Measure-Object\n").unwrap();
    let prints = "param([switch]$Quiet, $Target)\nWrite-Output \"checking $Target\"\nSet-Content -Path build/log.txt -Value $Target\n";
    std::fs::write(repo.path("tools/p.ps1"), prints).unwrap();
    assert_refused_as_plain(
        &repo,
        "Set-Content -Path docs/superpowers/plans/x.md -Value y",
        &[
            "./tools/w.ps1 -Target docs/superpowers/plans/x.md",
            "./tools/w.ps1 -t docs/superpowers/plans/x.md",
            "./tools/w.ps1 docs/superpowers/plans/x.md",
            "./tools/w.ps1 -Value z docs/superpowers/plans/x.md",
            "& ./tools/w.ps1 -Target:docs/superpowers/plans/x.md",
            "$p = 'docs/superpowers/plans/x.md'; & ./tools/w.ps1 $p",
            "pwsh -File tools/w.ps1 -Target docs/superpowers/plans/x.md",
            "./tools/d.ps1",
            "./tools/r.ps1 -Other docs/superpowers/plans/x.md",
        ],
    );
    let bash = Args::default().with("command", "pwsh -File tools/w.ps1 docs/superpowers/plans/x.md");
    assert!(check(&repo, "bash", &bash).is_some());
    assert_allowed(
        &repo,
        &[
            "./tools/r.ps1 -Target docs/superpowers/plans/x.md",
            "./tools/r.ps1 docs/superpowers/plans/x.md",
            "pwsh -File tools/r.ps1 -Target docs/superpowers/plans/x.md",
            "./tools/p.ps1 -Target docs/superpowers/plans/x.md",
            "./tools/p.ps1 -Quiet docs/superpowers/plans/x.md",
            "./tools/w.ps1 -Target src/x.txt; Get-Content docs/superpowers/plans/x.md",
            "./tools/d.ps1 src/x.txt",
        ],
    );
}

/// A script file named by a path typed as a command (`./tools/w.ps1 $p`) after another statement
/// is a call of that script with those arguments, as `& ./tools/w.ps1 $p` is: tree-sitter reads
/// the `.` as the dot-source operator and the argument as the command (an ERROR node between), so
/// the walk parses the line again spelled with `&`. A real dot-source (`. ./tools/w.ps1 $p`)
/// runs the same script with the same arguments.
#[test]
fn a_script_path_after_another_statement_is_a_call_of_the_script() {
    let repo = repo();
    std::fs::create_dir_all(repo.path("tools")).unwrap();
    std::fs::write(repo.path("tools/w.ps1"), "param($Target) Set-Content $Target x\n").unwrap();
    std::fs::write(repo.path("tools/a.ps1"), "Set-Content $args[0] x\n").unwrap();
    std::fs::write(repo.path("tools/r.ps1"), "param($Target)\nGet-Content $Target | Measure-Object\n").unwrap();
    std::fs::write(repo.path("build.ps1"), "Write-Output built\n").unwrap();
    std::fs::write(repo.path("tools/outer.ps1"), "param($T)\n$u = $T; ./tools/w.ps1 $u\n").unwrap();
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &[
            "$p='docs/superpowers/plans/x.md'; ./tools/w.ps1 $p",
            "$p='docs/superpowers/plans/x.md'\n./tools/w.ps1 $p",
            "$p='docs/superpowers/plans/x.md'; .\\tools\\w.ps1 $p",
            "$p='docs/superpowers/plans/x.md'; ./tools/w.ps1 -Target $p",
            "$p='docs/superpowers/plans/x.md'\n./tools/w.ps1 -Target $p",
            "$p='docs/superpowers/plans/x.md'; ./tools/a.ps1 $p",
            "$p='docs/superpowers/plans/x.md'; . ./tools/w.ps1 $p",
            "$p='docs/superpowers/plans/x.md'; ./tools/w.ps1 ($p)",
            "$p='docs/superpowers/plans'; ./tools/w.ps1 $p/x.md",
            "$p='docs/superpowers/plans/x.md'; ./tools/w.ps1 $p | Out-Null",
            "$p='docs/superpowers/plans/x.md'; if ($true) { ./tools/w.ps1 $p }",
            "$p='docs/superpowers/plans/x.md'; Get-Date && ./tools/w.ps1 $p",
            "function f { ./tools/w.ps1 $p }; $p='docs/superpowers/plans/x.md'; f",
            "./tools/outer.ps1 docs/superpowers/plans/x.md",
        ],
    );
    assert_allowed(
        &repo,
        &[
            "$p='docs/superpowers/plans/x.md'; Get-Content $p",
            "$p='docs/superpowers/plans/x.md'; ./tools/r.ps1 $p",
            "$p='docs/superpowers/plans/x.md'; ./tools/r.ps1 -Target $p",
            "$x = 1; ./build.ps1",
            "$x = 1; ./build.ps1 $x",
            "$p='src/x.txt'; ./tools/w.ps1 $p",
            "$p='src/x.txt'\n./tools/a.ps1 $p",
            "./tools/outer.ps1 src/x.txt",
            "Get-Content docs/superpowers/plans/x.md; ./build.ps1 $x",
            "$p='docs/superpowers/plans/x.md'; Get-ChildItem ./docs/superpowers/plans $p",
        ],
    );
}

/// The same line in a persistent `pwsh`, `$p` set by an earlier call: the misread is there for a
/// line's first statement too.
#[test]
fn a_script_path_in_a_persistent_pwsh_is_a_call_of_the_script() {
    let repo = repo();
    std::fs::create_dir_all(repo.path("tools")).unwrap();
    std::fs::write(repo.path("tools/w.ps1"), "param($Target) Set-Content $Target x\n").unwrap();
    let shell = format!("powershell-script-path:{}", std::process::id());
    let in_shell = |command: &str| {
        check_tool_call_in("pwsh", &pwsh(command), || repo.root.clone(), || Some(shell.clone()))
            .map(|denial| denial.to_string())
    };
    let plain = check(&repo, "pwsh", &pwsh("Set-Content docs/superpowers/plans/x.md x"));
    assert_eq!(in_shell("$p = 'docs/superpowers/plans/x.md'"), None);
    assert_eq!(in_shell("./tools/w.ps1 $p"), plain);
    assert_eq!(in_shell("$q = 'src/x.txt'"), None);
    assert_eq!(in_shell("./tools/w.ps1 $q"), None);
    assert!(crate::analysis::persistent::drop_shell(&shell));
}

#[test]
fn a_program_reads_what_the_pipeline_and_the_environment_give_it() {
    let repo = repo();
    assert_refused_as_plain(
        &repo,
        "Set-Content openspec/changes/c/approval.md x",
        &[
            "'openspec/changes/c/approval.md' | mytool",
            "Get-ChildItem openspec/changes/c/approval.md | mytool.exe --fix",
            "Get-Content openspec/changes/c/approval.md | Sort-Object | mytool",
            "$env:OUT = 'openspec/changes/c/approval.md'; mytool",
            "${env:my-var} = 'openspec/changes/c/approval.md'; mytool",
            "${env:#} = 'openspec/changes/c/approval.md'; mytool",
            "if ($c) { $env:OUT = 'openspec/changes/c/approval.md' } else { $env:OUT = 'notes.md' }; mytool",
        ],
    );
    assert_refused_as_plain(
        &repo,
        "Set-Content docs/superpowers/plans/x.md x",
        &["Get-Content docs/superpowers/plans/x.md | mytool", "$env:PLAN = 'docs/superpowers/plans/x.md'; & mytool"],
    );
    assert_allowed(
        &repo,
        &[
            "Get-Content docs/superpowers/plans/x.md | grep -c Spec",
            "Get-Content openspec/changes/c/approval.md | Select-String Approved",
            "'notes.md' | mytool",
            "$env:OUT = 'report.txt'; mytool; Get-FileHash docs/superpowers/plans/x.md",
            "$out = 'openspec/changes/c/approval.md'; Get-Content $out; mytool",
        ],
    );
}
