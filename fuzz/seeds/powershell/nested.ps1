$p = @'
openspec\changes\c\approval.md
'@
iex "pwsh -c 'cmd /c `"del $p`"'" ; & { cd docs; sl superpowers\plans; ni x.md } | Out-File -Pa:"a`"b" *>&1 2>> $null
foreach ($f in 'a','b') { [IO.File]::WriteAllText("$f.md", (Join-Path $PWD $f)) }
