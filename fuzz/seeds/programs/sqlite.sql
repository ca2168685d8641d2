
.output approval.md
.shell rm x
VACUUM INTO 'a.db'; ATTACH DATABASE 'b' AS c; select writefile('x', y);