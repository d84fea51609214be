// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph.js - check a page of `sampo flamegraph` in headless Chromium
 * against the figures of `sampo report` on the same file.
 *
 *	node flamegraph.js PAGE.html EXPECT.json [SCREENSHOT.png]
 *
 * EXPECT.json (written by the calling test from report's output):
 *	{ "events": ["cpu-clock", ...],            report's event names, in order
 *	  "total": 351,                            samples of the first event
 *	  "symbols": { "name": { "self": 200, "selfPercent": "56.98",
 *	                         "childrenPercent": "58.69", "kernel": false }, ... },
 *	  "search": "alpha", "matched": "58.69",   a regex and the share it must match
 *	  "zoom": "burn_leaf_beta", "other": "burn_leaf_alpha" }
 *
 * What a user would check, through the page's controls: every symbol is
 * drawn with report's self samples and percentages (read from the tooltip
 * under the mouse), kernel and user frames have different colours, the
 * search shows the matched share, a click zooms, the URL is a permalink that
 * reopens the same view, the icicle button turns the graph upside down, and
 * the page asks for nothing over the network.
 */
'use strict';

const fs = require('fs');
const { launch, fileUrl, check } = require('./browser.js');

async function tooltipAt(page, f) {
	await page.mouse.move(f.x + f.w / 2, f.pageY + f.h / 2);
	await page.waitForSelector('#tip', { state: 'visible' });
	return page.textContent('#tip');
}

async function frames(page) {
	const fr = await page.evaluate(() => window.sampoFlame.frames());
	const box = await page.locator('#canvas').boundingBox();
	for (const f of fr)
		f.x += box.x;
	return fr;
}

async function main() {
	const [pagePath, expectPath, shot] = process.argv.slice(2);
	const want = JSON.parse(fs.readFileSync(expectPath, 'utf8'));
	const { context, close } = await launch();
	const errors = [], requests = [];

	try {
		const page = await context.newPage();
		page.on('pageerror', (e) => errors.push(e.message));
		page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
		page.on('request', (r) => { if (!r.url().startsWith('file:')) requests.push(r.url()); });
		await page.goto(fileUrl(pagePath));
		await page.waitForSelector('body[data-ready="1"]');

		/* names from the file are data: no markup of theirs reaches the page */
		check(await page.evaluate(() => document.scripts.length) === 2 && !(await page.evaluate(() => window.pwned)),
		      'a name from the file became markup');

		/* one graph per event, named as report names them */
		const events = await page.evaluate(() => window.sampoFlame.graphs());
		check(JSON.stringify(events) === JSON.stringify(want.events),
		      `events ${JSON.stringify(events)}, report has ${JSON.stringify(want.events)}`);
		if (events.length > 1) {
			check(await page.locator('#tabs button').count() === events.length,
			      'one tab per event');
			/* each event its own graph, with its own total, in the permalink */
			await page.locator('#tabs button').nth(1).click();
			check(await page.evaluate(() => window.sampoFlame.graph()) === 1, 'the second tab does not show the second graph');
			check(page.url().includes('g=1'), `the second graph is not in the permalink: ${page.url()}`);
			check((await page.textContent('#info')).startsWith(events[1] + ':'), 'the second graph is not named');
			await page.locator('#tabs button').nth(0).click();
		}
		if (!want.zoom) {
			check(errors.length === 0, 'page errors: ' + errors.join('; '));
			console.log('ok: events ' + events.join(', '));
			return;
		}

		/* every symbol: its frames' self samples add up to report's */
		let fr = await frames(page);
		const root = fr.find((f) => f.name === 'all');
		check(root && root.samples === want.total, `root has ${root && root.samples} samples, report ${want.total}`);
		for (const [name, s] of Object.entries(want.symbols)) {
			const mine = fr.filter((f) => f.name === name);
			check(mine.length > 0, `'${name}' is not drawn`);
			const self = mine.reduce((a, f) => a + f.selfSamples, 0);
			check(self === s.self, `'${name}': ${self} self samples drawn, report has ${s.self}`);
			/* the tooltip of its widest frame */
			const f = mine.reduce((a, b) => (b.w > a.w ? b : a));
			const tip = await tooltipAt(page, f);
			check(tip.startsWith(name + '\n'), `tooltip over '${name}' reads '${tip}'`);
			if (mine.length === 1) {
				check(tip.includes(`self: ${s.self} samples, ${s.selfPercent}%`),
				      `tooltip over '${name}' reads '${tip}', report: ${s.self} samples, ${s.selfPercent}%`);
				check(tip.includes(`, ${s.childrenPercent}% (`),
				      `tooltip over '${name}' reads '${tip}', report's children: ${s.childrenPercent}%`);
			}
			check(tip.includes(s.kernel ? '\nkernel' : '\nuser'), `'${name}' is not a ${s.kernel ? 'kernel' : 'user'} frame: '${tip}'`);
		}

		/* kernel and user frames coloured apart: user warm (red > blue), kernel cool */
		const c = await page.evaluate(() => {
			const cv = document.getElementById('canvas'), x = cv.getContext('2d');
			const dpr = cv.width / cv.clientWidth;
			return window.sampoFlame.frames().filter((f) => f.w > 4 && (f.kind === 'kernel' || f.kind === 'user'))
				.map((f) => {
					const d = x.getImageData(Math.round((f.x + 2) * dpr), Math.round((f.y + f.h - 2) * dpr), 1, 1).data;
					return { kind: f.kind, name: f.name, rgb: [d[0], d[1], d[2]] };
				});
		});
		for (const p of c) {
			const [r, , b] = p.rgb;
			check(p.kind === 'user' ? r > b + 60 : b > r + 40,
			      `${p.kind} frame '${p.name}' drawn in rgb(${p.rgb})`);
		}
		check(c.some((p) => p.kind === 'kernel') === Object.values(want.symbols).some((s) => s.kernel),
		      'kernel frames are drawn');

		/* search: the matched share, as report's children percentage */
		await page.fill('#search', want.search);
		const matched = (await page.textContent('#matched')).trim();
		check(matched === `Matched: ${want.matched}%`, `search '${want.search}' shows '${matched}', want ${want.matched}%`);
		fr = await frames(page);
		const hits = fr.filter((f) => new RegExp(want.search).test(f.name));
		const px = await page.evaluate((f) => {
			const cv = document.getElementById('canvas'), dpr = cv.width / cv.clientWidth;
			const d = cv.getContext('2d').getImageData(Math.round((f.x + 2) * dpr), Math.round((f.y + f.h - 2) * dpr), 1, 1).data;
			return [d[0], d[1], d[2]];
		}, Object.assign({}, hits[0], { x: hits[0].x - (await page.locator('#canvas').boundingBox()).x }));
		check(px[0] > 200 && px[1] < 100 && px[2] > 200, `a matched frame is drawn in rgb(${px}), not highlighted`);

		/* a click zooms: the frame fills the width, its sibling is gone */
		const target = fr.filter((f) => f.name === want.zoom).reduce((a, b) => (b.w > a.w ? b : a));
		const width = (await page.locator('#canvas').boundingBox()).width;
		await page.mouse.click(target.x + target.w / 2, target.pageY + target.h / 2);
		fr = await frames(page);
		const z = fr.find((f) => f.id === target.id);
		check(z && Math.abs(z.w - width) < 1, `after a click '${want.zoom}' is ${z && z.w}px wide, not ${width}`);
		check(!fr.some((f) => f.name === want.other), `'${want.other}' still drawn after zooming on '${want.zoom}'`);
		check((await page.textContent('#info')).includes(`zoomed on`), 'the zoom is not shown');

		/* the permalink: the URL now names the zoom and the search */
		const url = page.url();
		check(/#.*z=\d+/.test(url) && url.includes('s=' + encodeURIComponent(want.search)), `URL after zoom: ${url}`);
		const again = await context.newPage();
		again.on('pageerror', (e) => errors.push(e.message));
		await again.goto(url);
		await again.waitForSelector('body[data-ready="1"]');
		check(await again.evaluate(() => window.sampoFlame.zoomed()) === target.id, 'the permalink does not reopen the zoom');
		const fr2 = await frames(again);
		const z2 = fr2.find((f) => f.id === target.id);
		check(z2 && Math.abs(z2.w - width) < 1, 'the permalink does not show the zoomed frame full width');
		check((await again.textContent('#matched')).trim() === `Matched: ${want.matched}%` ||
		      (await again.inputValue('#search')) === want.search, 'the permalink does not keep the search');
		await again.close();

		/* reset, then icicle: the root moves from the bottom row to the top */
		await page.click('#reset');
		check(await page.evaluate(() => window.sampoFlame.zoomed()) === 0, 'reset does not unzoom');
		await page.fill('#search', '');
		fr = await frames(page);
		const bottom = fr.find((f) => f.name === 'all').y;
		check(bottom > 0 && bottom === Math.max(...fr.map((f) => f.y)), 'the root is not at the bottom of the flame graph');
		await page.click('#invert');
		fr = await frames(page);
		check(fr.find((f) => f.name === 'all').y === 0, 'icicle mode does not put the root at the top');
		check(page.url().includes('i=1'), 'icicle mode is not in the permalink');
		await page.click('#invert');

		if (shot) {
			await page.setViewportSize({ width: 1000, height: 420 });
			await page.evaluate(() => window.sampoFlame.search(''));
			fr = await frames(page);
			const leaf = fr.filter((f) => f.name === want.other)[0];
			await page.mouse.move(leaf.x + leaf.w / 2, leaf.pageY + leaf.h / 2);
			await page.screenshot({ path: shot, fullPage: true });
		}
		check(errors.length === 0, 'page errors: ' + errors.join('; '));
		check(requests.length === 0, 'network requests: ' + requests.join(' '));
		console.log('ok: ' + Object.keys(want.symbols).length + ' symbols, search, zoom, permalink, icicle');
	} finally {
		await close();
	}
}

main().catch((e) => {
	if (!process.exitCode)
		console.error('FAIL: ' + e.message);
	process.exit(1);
});
