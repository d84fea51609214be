// SPDX-License-Identifier: GPL-2.0
/*
 * open-time.js - how long a page of `sampo flamegraph` takes to open in
 * headless Chromium: from the start of the navigation to the first graph
 * drawn (the page's own performance.now() when it is ready), and the wall
 * time of the whole load seen from here, then when the page has read the
 * branches the first picture skipped. A measurement for
 * docs/performance.md, not a test: it asserts nothing.
 *
 *	node open-time.js PAGE.html [RUNS]
 */
'use strict';

const { launch, fileUrl } = require('./browser.js');

(async () => {
	const [page, runs = '3'] = process.argv.slice(2);
	const { context, close } = await launch();
	try {
		for (let i = 0; i < Number(runs); i++) {
			const p = await context.newPage();
			const t0 = Date.now();
			await p.goto(fileUrl(page));
			await p.waitForSelector('body[data-ready="1"]', { timeout: 120000 });
			const wall = Date.now() - t0;
			const ready = await p.evaluate(() => document.body.dataset.readyMs);
			const n = await p.evaluate(() => window.sampoFlame.frames().length);
			const first = await p.evaluate(() => window.sampoFlame.firstPicture());
			await p.waitForSelector('body[data-complete="1"]', { timeout: 120000 });
			const complete = await p.evaluate(() => document.body.dataset.completeMs);
			console.log(`run ${i + 1}: ready ${ready} ms after navigation start (${wall} ms wall), ` +
				    `${n} frames drawn, ${first.nodes} of ${first.all} nodes read; ` +
				    `the whole tree read at ${complete} ms`);
			await p.close();
		}
	} finally {
		await close();
	}
})();
