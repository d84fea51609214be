// SPDX-License-Identifier: GPL-2.0
/*
 * flamegraph-inline.js - check that a page of `sampo flamegraph` draws the
 * functions the compiler inlined as frames of their own, on top of the
 * function they were inlined into, in a colour of their own.
 *
 *	node flamegraph-inline.js PAGE.html OUTER INLINED... [--none]
 *
 * OUTER is the real function; INLINED the chain of functions inlined into
 * it, outermost first (each must sit right on top of the one before). With
 * --none, the page must have no inlined frame at all (--no-inline).
 * What a user sees: each inlined frame is drawn above its caller and inside
 * its width, its tooltip says "inlined", and it is green where user frames
 * are warm and kernel frames cool.
 */
'use strict';

const { launch, fileUrl, check } = require('./browser.js');

/*
 * Point at frame @f until its tooltip shows: in the canvas's own viewport
 * coordinates, measured again at each try (a page that lays itself out again
 * after it says it is complete, on a loaded machine, moved the frame under a
 * pointer placed once), a few moves before giving up. A frame outside the
 * viewport is scrolled into it first: a deep chain elsewhere in the profile
 * (a kernel stack of a page fault, under ASan's slower program) makes the
 * graph taller than the window, and the frames of the test's own chain, near
 * the root at the bottom, then lie below it, where the pointer cannot go
 * (the tooltip never showed in 1 run of several under ASan).
 */
async function hover(page, f) {
	const vp = page.viewportSize();

	for (let attempt = 0; attempt < 5; attempt++) {
		const now = await page.evaluate((id) =>
			window.sampoFlame.frames().find((g) => g.id === id), f.id);
		const at = now || f;
		let box = await page.locator('#canvas').boundingBox();
		let x = box.x + at.x + at.w / 2, y = box.y + at.y + at.h / 2;

		if (x < 0 || y < 0 || x >= vp.width || y >= vp.height) {
			await page.evaluate(([dx, dy]) => window.scrollBy(dx, dy),
					    [x - vp.width / 2, y - vp.height / 2]);
			box = await page.locator('#canvas').boundingBox();
			x = box.x + at.x + at.w / 2;
			y = box.y + at.y + at.h / 2;
		}
		await page.mouse.move(x, y, { steps: 2 });
		try {
			await page.waitForSelector('#tip', { state: 'visible', timeout: 5000 });
			return;
		} catch (e) {
			await page.mouse.move(0, 0);
		}
	}
	await page.waitForSelector('#tip', { state: 'visible', timeout: 5000 });
}

async function main() {
	const args = process.argv.slice(2);
	const none = args.includes('--none');
	const [pagePath, outer, ...inlined] = args.filter((a) => a !== '--none');
	const { context, close } = await launch();
	const errors = [];

	try {
		const page = await context.newPage();
		page.on('pageerror', (e) => errors.push(e.message));
		await page.goto(fileUrl(pagePath));
		await page.waitForSelector('body[data-ready="1"]');
		await page.waitForSelector('body[data-complete="1"]');

		const pixels = await page.evaluate(() => {
			const cv = document.getElementById('canvas'), x = cv.getContext('2d');
			const dpr = cv.width / cv.clientWidth;
			return window.sampoFlame.frames().map((f) => {
				const d = f.w > 4 ?
					x.getImageData(Math.round((f.x + 2) * dpr), Math.round((f.y + f.h - 2) * dpr), 1, 1).data :
					[0, 0, 0];
				return Object.assign(f, { rgb: [d[0], d[1], d[2]] });
			});
		});
		const frames = pixels;
		if (none) {
			check(!frames.some((f) => f.kind === 'inlined'),
			      'inlined frames drawn with --no-inline: ' +
			      frames.filter((f) => f.kind === 'inlined').map((f) => f.name).join(', '));
			check(!frames.some((f) => inlined.includes(f.name)), `${inlined} drawn with --no-inline`);
			console.log('ok: no inlined frame');
			return;
		}
		const base = frames.filter((f) => f.name === outer).reduce((a, b) => (b.w > a.w ? b : a));
		check(base && base.kind === 'user', `'${outer}' is not drawn as a user frame`);
		let below = base;
		for (const name of inlined) {
			const f = frames.find((g) => g.name === name && g.depth === below.depth + 1 &&
					     g.x >= below.x - 0.5 && g.x + g.w <= below.x + below.w + 0.5);
			check(f, `no frame '${name}' right on top of '${below.name}'`);
			check(f.kind === 'inlined', `'${name}' is a ${f.kind} frame, not an inlined one`);
			check(f.w > 4, `'${name}' is too narrow to see (${f.w}px)`);
			/* its own colour: green, where user frames are warm and kernel ones cool */
			const [r, g, b] = f.rgb;
			check(g > r + 40 && g > b + 40, `inlined frame '${name}' drawn in rgb(${f.rgb})`);
			check(JSON.stringify(f.rgb) !== JSON.stringify(base.rgb), `'${name}' has its caller's colour`);
			await hover(page, f);
			const tip = await page.textContent('#tip');
			check(tip.startsWith(name) && tip.includes('\ninlined'), `tooltip over '${name}' reads '${tip}'`);
			below = f;
		}
		const [r, , b] = base.rgb;
		check(r > b + 60, `user frame '${outer}' drawn in rgb(${base.rgb})`);
		check(errors.length === 0, 'page errors: ' + errors.join('; '));
		console.log(`ok: ${outer} > ${inlined.join(' > ')}, inlined frames in their own colour`);
	} finally {
		await close();
	}
}

main().catch((e) => {
	if (!process.exitCode)
		console.error(e.stack || String(e));
	process.exitCode = 1;
});
