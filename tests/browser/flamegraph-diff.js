// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-diff.js - check a page of `sampo flamegraph --diff BASELINE NEW`
 * in headless Chromium against `sampo report` on each of the two files.
 *
 *	node flamegraph-diff.js PAGE.html BASE.json NEW.json GREW SHRANK SAME
 *
 * BASE.json and NEW.json are report-figures.py's for the two files. GREW,
 * SHRANK and SAME are symbols whose share of the first event grew, shrank
 * and stayed the same from BASELINE to NEW (the calling test made the
 * files so). Checks: the graphs are NEW's events; a frame's width is NEW's
 * share (report's children percentage); the tooltip gives NEW's and the
 * baseline's samples and shares and the change in points, each as report
 * computes it for its file; GREW is drawn red, SHRANK blue, SAME grey.
 */
'use strict';

const fs = require('fs');
const { launch, fileUrl, check } = require('./browser.js');

async function main() {
	const [pagePath, basePath, newPath, grew, shrank, same] = process.argv.slice(2);
	const base = JSON.parse(fs.readFileSync(basePath, 'utf8'));
	const now = JSON.parse(fs.readFileSync(newPath, 'utf8'));
	const { context, close } = await launch();
	const errors = [];

	try {
		const page = await context.newPage();
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(fileUrl(pagePath));
		await page.waitForSelector('body[data-ready="1"]');
		const events = await page.evaluate(() => window.sampoFlame.graphs());
		check(JSON.stringify(events) === JSON.stringify(now.events),
		      `events ${JSON.stringify(events)}, NEW has ${JSON.stringify(now.events)}`);
		const legend = await page.textContent('#legend');
		check(legend.includes('grew') && legend.includes('shrank'), `legend: '${legend}'`);

		const box = await page.locator('#canvas').boundingBox();
		const fr = await page.evaluate(() => window.sampoFlame.frames());
		const width = box.width;
		const frameOf = (name) => {
			const f = fr.filter((x) => x.name === name);
			check(f.length === 1, `'${name}' is drawn ${f.length} times`);
			return f[0];
		};
		for (const name of [grew, shrank, same]) {
			const f = frameOf(name), n = now.symbols[name], b = base.symbols[name];
			check(n && b, `report does not list '${name}' in both files`);
			/* the width is NEW's share */
			check(Math.abs(100 * f.w / width - parseFloat(n.childrenPercent)) < 0.1,
			      `'${name}' is ${(100 * f.w / width).toFixed(2)}% wide, NEW's share is ${n.childrenPercent}%`);
			await page.mouse.move(box.x + f.x + f.w / 2, f.pageY + f.h / 2);
			await page.waitForSelector('#tip', { state: 'visible' });
			const tip = await page.textContent('#tip');
			const dl = parseFloat(n.childrenPercent) - parseFloat(b.childrenPercent);
			const want = [`new: `, `, ${n.childrenPercent}%`, `baseline: `, `, ${b.childrenPercent}%`,
				      `change: ${dl >= 0 ? '+' : ''}${dl.toFixed(2)} points`];
			if (n.selfPercent === n.childrenPercent && b.selfPercent === b.childrenPercent)
				want.push(`new: ${n.self} samples`, `baseline: ${b.self} samples`);
			for (const w of want)
				check(tip.includes(w), `tooltip over '${name}' reads '${tip}', wants '${w}'`);
			/* its colour, at the frame's left edge (no text there) */
			const rgb = await page.evaluate((g) => {
				const c = document.getElementById('canvas'), dpr = c.width / c.clientWidth;
				const d = c.getContext('2d').getImageData(Math.round((g.x + 2) * dpr),
					Math.round((g.y + g.h - 2) * dpr), 1, 1).data;
				return [d[0], d[1], d[2]];
			}, f);
			const [r, g, bl] = rgb;
			if (name === grew)
				check(r === 255 && g < 200 && bl < 200, `'${name}' grew but is drawn rgb(${rgb})`);
			else if (name === shrank)
				check(bl === 255 && r < 200 && g < 200, `'${name}' shrank but is drawn rgb(${rgb})`);
			else
				check(Math.abs(r - g) < 8 && Math.abs(g - bl) < 8, `'${name}' did not change but is drawn rgb(${rgb})`);
		}
		check(errors.length === 0, 'page errors: ' + errors.join('; '));
		console.log(`ok: ${grew} red, ${shrank} blue, ${same} grey, tooltips with both files' figures`);
	} finally {
		await close();
	}
}

main().catch((e) => {
	if (!process.exitCode)
		console.error('FAIL: ' + e.message);
	process.exit(1);
});
