// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-large.js - a large page of `sampo flamegraph`: the first
 * picture reads only the branches wide enough to draw, then the page reads
 * the rest; nothing may change for the user but the time it takes.
 *
 *	node flamegraph-large.js PAGE.html SAMPLES
 *
 * Checks: the first picture skipped nodes; once complete, the root has
 * SAMPLES samples (what report counted) and the frames drawn are the same
 * as in the first picture; a node the first picture skipped can be zoomed
 * on, by a click's API and by a permalink opened before the page completes
 * (it must read what it skipped at once), and fills the width; a search
 * counts the skipped branches too.
 */
'use strict';

const { launch, fileUrl, check } = require('./browser.js');

async function open(context, url) {
	const page = await context.newPage();
	const errors = [];
	page.on('pageerror', (e) => errors.push(e.message));
	await page.goto(url);
	await page.waitForSelector('body[data-ready="1"]', { timeout: 120000 });
	return [page, errors];
}

async function main() {
	const [pagePath, samples] = process.argv.slice(2);
	const { context, close } = await launch();
	try {
		const [page, errors] = await open(context, fileUrl(pagePath));
		const first = await page.evaluate(() => window.sampoFlame.firstPicture());
		check(first.nodes < first.all, `the first picture read all ${first.all} nodes`);
		const drawnFirst = first.frames;
		await page.waitForSelector('body[data-complete="1"]', { timeout: 120000 });
		const drawn = await page.evaluate(() => window.sampoFlame.frames()
			.map((f) => `${f.id} ${f.name} ${f.samples} ${f.x.toFixed(2)} ${f.w.toFixed(2)}`));
		check(JSON.stringify(drawn) === JSON.stringify(drawnFirst),
		      'the frames drawn changed once the whole tree was read');
		const root = await page.evaluate(() => window.sampoFlame.frames().find((f) => f.depth === 0));
		check(root.samples === Number(samples), `root: ${root.samples} samples, report counts ${samples}`);

		/* the widest node the first picture skipped */
		const skipped = new Set(first.ids);
		const target = await page.evaluate((ids) => {
			const seen = new Set(ids);
			let best = null;
			for (let id = 1; id < window.sampoFlame.firstPicture().all; id++) {
				if (seen.has(id))
					continue;
				window.sampoFlame.zoom(id);
				const f = window.sampoFlame.frames().find((x) => x.id === id);
				if (f && f.depth > 3 && (!best || f.samples > best.samples))
					best = { id, name: f.name, samples: f.samples, w: f.w };
				if (best && id > 2000)
					break;
			}
			return best;
		}, first.ids);
		check(target && !skipped.has(target.id), 'found no skipped node to zoom on');
		const width = (await page.locator('#canvas').boundingBox()).width;
		check(Math.abs(target.w - width) < 1, `zoomed on skipped '${target.name}': ${target.w}px wide, not ${width}`);

		/* its permalink, opened fresh: the page reads the skipped branch at once */
		const url = fileUrl(pagePath) + '#z=' + target.id;
		const [again, errors2] = await open(context, url);
		check(await again.evaluate(() => window.sampoFlame.zoomed()) === target.id, 'the permalink lost the zoom');
		const f = await again.evaluate((id) => window.sampoFlame.frames().find((x) => x.id === id), target.id);
		check(f && f.name === target.name && f.samples === target.samples && Math.abs(f.w - width) < 1,
		      `the permalink shows ${JSON.stringify(f)}, not '${target.name}' full width`);

		/* a search over the whole tree: the target's own name is at least its share */
		await again.evaluate(() => window.sampoFlame.zoom(0));
		await again.fill('#search', '^' + target.name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$');
		const m = await again.evaluate(() => window.sampoFlame.matched());
		check(m >= 100 * target.samples / Number(samples) - 0.01, `matched ${m}% for '${target.name}'`);
		check(errors.length === 0 && errors2.length === 0, 'page errors: ' + errors.concat(errors2).join('; '));
		console.log(`ok: ${first.nodes} of ${first.all} nodes in the first picture; zoom and permalink into skipped '${target.name}'`);
	} finally {
		await close();
	}
}

main().catch((e) => {
	if (!process.exitCode)
		console.error('FAIL: ' + e.message);
	process.exit(1);
});
