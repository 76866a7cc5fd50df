import type { Me } from '../../core/schemas/me';

export const OSLO = '11111111-1111-4111-8111-111111111111';
export const BERGEN = '22222222-2222-4222-8222-222222222222';
export const RECORD = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

/** Example users for stories only: no real people or casework. */
export const storyAdmin: Me = {
  id: '99999999-9999-4999-8999-999999999999',
  email: 'ada.admin@lab.example',
  firstName: 'Ada',
  lastName: 'Admin',
  roleName: 'Administrator',
  isAdmin: true,
  scope: 'All',
  organizations: [
    { id: OSLO, name: 'Oslo Laboratory' },
    { id: BERGEN, name: 'Bergen Laboratory' },
  ],
  permissions: {},
  licensesAccepted: true,
};

export const storyReader: Me = {
  id: '88888888-8888-4888-8888-888888888888',
  email: 'rita.reader@lab.example',
  firstName: 'Rita',
  lastName: 'Reader',
  roleName: 'Read-only',
  isAdmin: false,
  scope: 'Organization',
  organizations: [{ id: OSLO, name: 'Oslo Laboratory' }],
  permissions: { Cases: ['Read'], Profiles: ['Read'], Hits: ['Read'], Markers: ['Read'] },
  licensesAccepted: true,
};
