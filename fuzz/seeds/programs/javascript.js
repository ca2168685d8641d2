const fs = require('fs'), path = require('path'); const ag = require('approval-gates');
fs.writeFileSync(path.join(__dirname, `docs/${x}/plans`), 'x'); ag['write' + 'Approval'](); /re\/'x/.exec(s)
require('child_process').execSync('touch approval.md'); await $`rm x`