// SPDX-License-Identifier: GPL-2.0
/*
 * speedscope.js - check a file of `sampo script --format speedscope`
 * against speedscope itself and against `sampo report`'s figures.
 *
 *	node speedscope.js FILE.json EXPECT.json
 *
 * EXPECT.json is report-figures.py's (the first event's symbols with their
 * self and children percentages, the event count, the events' names).
 *
 * 1. The file is valid against the JSON schema the speedscope npm package
 *    ships (dist/release/file-format-schema.json), checked with ajv.
 * 2. speedscope's own app (the package's dist/release/index.html, opened
 *    over file:// in headless Chromium) imports it through its file input:
 *    its log must say "Importing as speedscope json file", its title bar
 *    must name the first event, and its Sandwich table must list every
 *    symbol report lists, with report's self and total shares.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const Ajv = require('ajv');
const { launch, fileUrl, check } = require('./browser.js');

const release = path.join(__dirname, 'node_modules/speedscope/dist/release');

/* "206.00ms (59%)" -> nanoseconds */
function ns(text) {
	const m = /^([\d.]+)(ns|µs|us|ms|s|min|h)/.exec(text.trim());
	check(m, `cannot read a time in '${text}'`);
	const unit = { ns: 1, 'µs': 1e3, us: 1e3, ms: 1e6, s: 1e9, min: 60e9, h: 3600e9 }[m[2]];
	return parseFloat(m[1]) * unit;
}

async function main() {
	const [file, expectPath] = process.argv.slice(2);
	const want = JSON.parse(fs.readFileSync(expectPath, 'utf8'));
	const data = JSON.parse(fs.readFileSync(file, 'utf8'));

	/* 1. the schema speedscope ships */
	const schema = JSON.parse(fs.readFileSync(path.join(release, 'file-format-schema.json'), 'utf8'));
	const ajv = new Ajv({ allErrors: true, strict: false });
	const validate = ajv.compile(schema);
	check(validate(data), 'not valid against speedscope\'s schema: ' + ajv.errorsText(validate.errors));
	check(data.profiles.length === want.events.length,
	      `${data.profiles.length} profiles, report has ${want.events.length} events`);

	/* 2. speedscope imports it */
	const { context, close } = await launch();
	const logs = [], errors = [];
	try {
		const page = await context.newPage();
		page.on('console', (m) => logs.push(m.text()));
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(fileUrl(path.join(release, 'index.html')));
		await page.locator('input[type=file]').setInputFiles(file);
		await page.waitForFunction(() => document.body.textContent.includes('Sandwich'));
		check(logs.includes('Importing as speedscope json file'),
		      'speedscope did not import it as its own format: ' + JSON.stringify(logs.filter((l) => /mport/.test(l))));
		check((await page.textContent('body')).includes(want.events[0]), `speedscope does not show the event '${want.events[0]}'`);

		await page.getByText('Sandwich').click();
		await page.waitForFunction(() => document.querySelectorAll('tr').length > 1);
		const rows = await page.evaluate(() => Array.from(document.querySelectorAll('tr')).slice(1)
			.map((r) => Array.from(r.children).map((c) => c.textContent)));
		const byName = new Map(rows.map(([total, self, name]) => [name, { total, self }]));
		for (const [name, s] of Object.entries(want.symbols)) {
			const r = byName.get(name);
			check(r, `speedscope does not list '${name}'`);
			const self = 100 * ns(r.self) / want.eventCount, total = 100 * ns(r.total) / want.eventCount;
			check(Math.abs(self - parseFloat(s.selfPercent)) < 0.006,
			      `'${name}': self ${r.self} = ${self.toFixed(3)}%, report ${s.selfPercent}%`);
			check(Math.abs(total - parseFloat(s.childrenPercent)) < 0.006,
			      `'${name}': total ${r.total} = ${total.toFixed(3)}%, report ${s.childrenPercent}%`);
		}
		check(errors.length === 0, 'page errors: ' + errors.join('; '));
		console.log(`ok: schema, imported by speedscope, ${Object.keys(want.symbols).length} symbols as report has them`);
	} finally {
		await close();
	}
}

main().catch((e) => {
	if (!process.exitCode)
		console.error('FAIL: ' + e.message);
	process.exit(1);
});
